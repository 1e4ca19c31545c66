// ua-parser-js 1.0.x ships no typings (they are bundled only from 2.x), so declare just what ua.ts reads.
declare module "ua-parser-js" {
  export type UAParserResult = {
    ua: string;
    browser: { name?: string; version?: string; major?: string };
    engine: { name?: string; version?: string };
    os: { name?: string; version?: string };
    device: { vendor?: string; model?: string; type?: string };
    cpu: { architecture?: string };
  };
  export class UAParser {
    constructor(userAgent?: string);
    getResult(): UAParserResult;
    getBrowser(): UAParserResult["browser"];
    getOS(): UAParserResult["os"];
    getDevice(): UAParserResult["device"];
  }
}
