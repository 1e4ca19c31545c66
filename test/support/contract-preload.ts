// Preloaded for every test file (bunfig.toml): wraps fetch so that each response of the service
// is held to the OpenAPI contract (contract.ts) before the test sees it.

import { contractProblem } from "./contract.ts";

const original = globalThis.fetch;
const checked = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const response = await original(input, init);
  const request = input instanceof Request ? input : null;
  const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
  const url = new URL(request ? request.url : String(input));
  // A clone, so that the test reads the response as if nothing had looked at it.
  const problem = await contractProblem(method, url, response.clone());
  if (problem !== null) throw new Error(`contract (src/http/openapi): ${problem}`);
  return response;
};
globalThis.fetch = Object.assign(checked, { preconnect: original.preconnect }) as typeof fetch;
