/work/main/tools/target/debug/deps/string_transform-6dd0852490e1932b.d: string_transform/src/main.rs string_transform/src/clusters.rs string_transform/src/slug.rs

/work/main/tools/target/debug/deps/string_transform-6dd0852490e1932b: string_transform/src/main.rs string_transform/src/clusters.rs string_transform/src/slug.rs

string_transform/src/main.rs:
string_transform/src/clusters.rs:
string_transform/src/slug.rs:

# env-dep:CARGO_PKG_VERSION=0.1.0
