/work/main/tools/target/debug/deps/json_query-b1f5c89ece6cc992.d: json_query/src/main.rs json_query/src/filter.rs json_query/src/path.rs json_query/src/select.rs

/work/main/tools/target/debug/deps/json_query-b1f5c89ece6cc992: json_query/src/main.rs json_query/src/filter.rs json_query/src/path.rs json_query/src/select.rs

json_query/src/main.rs:
json_query/src/filter.rs:
json_query/src/path.rs:
json_query/src/select.rs:

# env-dep:CARGO_PKG_VERSION=0.1.0
