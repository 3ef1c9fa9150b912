// Bun imports text files as strings (`with { type: 'text' }`); tool descriptions and prompts use it.
declare module '*.md' {
  const text: string;
  export default text;
}
declare module '*.sql' {
  const text: string;
  export default text;
}
// Helper binaries embedded in the executable (`with { type: 'file' }` gives their path, in $bunfs when compiled).
declare module '*/apply-seccomp' {
  const path: string;
  export default path;
}
