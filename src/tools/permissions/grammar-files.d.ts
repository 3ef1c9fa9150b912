// The bash grammar's WebAssembly files, imported `with { type: 'file' }`: their paths (in $bunfs when compiled).
declare module 'web-tree-sitter/web-tree-sitter.wasm' {
  const path: string;
  export default path;
}
declare module 'tree-sitter-bash/tree-sitter-bash.wasm' {
  const path: string;
  export default path;
}
