// `import path from "x.mmdb" with { type: "file" }` yields a path string; in a compiled binary it points into the embedded files.
declare module "*.mmdb" {
  const path: string;
  export default path;
}
