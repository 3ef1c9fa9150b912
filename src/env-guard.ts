// Must be the entry's first import: Ink reads process.env.DEV and, when it is
// "true", tries to load devtools and a package.json that do not exist inside
// the compiled binary (ink-bun-spike §1.5). A user's DEV=true must not leak in.
if (process.env.DEV === 'true') delete process.env.DEV;
export {};
