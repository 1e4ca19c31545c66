// Placeholder: the web UI issue replaces this with the embedded pages and assets.
import { Elysia } from "elysia";

export type WebDeps = {
  /** True when a link with this id or alias exists (stats page answers 404 otherwise). */
  linkExists: (id: string) => boolean;
  version: string;
};

export function webRoutes(_deps: WebDeps) {
  return new Elysia({ name: "web" });
}
