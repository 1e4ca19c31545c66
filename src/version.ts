// The release version, taken from package.json at build time so the binary knows it without the file.
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;
