// The build's index of the built-in skills (vite.config.ts, builtinIndex()).
declare module "virtual:builtin-index" {
  const index: unknown;
  export default index;
}
