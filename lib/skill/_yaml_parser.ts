// Private: the parts of `yaml` the front matter readers use, re-exported by name so a bundler
// keeps only these (a namespace `import("yaml")` keeps every export: stringify, visitors, the
// composer's public classes).

export { isAlias, isMap, isScalar, isSeq, parseDocument } from "yaml";
