// Bun imports text files as strings (`with { type: 'text' }`); tool descriptions and prompts use it.
declare module '*.md' {
  const text: string;
  export default text;
}
declare module '*.sql' {
  const text: string;
  export default text;
}
