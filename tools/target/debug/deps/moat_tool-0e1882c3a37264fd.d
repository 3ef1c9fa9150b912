/work/main/tools/target/debug/deps/moat_tool-0e1882c3a37264fd.d: moat-tool/src/lib.rs moat-tool/src/cli.rs moat-tool/src/files.rs moat-tool/src/help.rs moat-tool/src/json.rs moat-tool/src/json_parse.rs moat-tool/src/parse.rs

/work/main/tools/target/debug/deps/libmoat_tool-0e1882c3a37264fd.rlib: moat-tool/src/lib.rs moat-tool/src/cli.rs moat-tool/src/files.rs moat-tool/src/help.rs moat-tool/src/json.rs moat-tool/src/json_parse.rs moat-tool/src/parse.rs

/work/main/tools/target/debug/deps/libmoat_tool-0e1882c3a37264fd.rmeta: moat-tool/src/lib.rs moat-tool/src/cli.rs moat-tool/src/files.rs moat-tool/src/help.rs moat-tool/src/json.rs moat-tool/src/json_parse.rs moat-tool/src/parse.rs

moat-tool/src/lib.rs:
moat-tool/src/cli.rs:
moat-tool/src/files.rs:
moat-tool/src/help.rs:
moat-tool/src/json.rs:
moat-tool/src/json_parse.rs:
moat-tool/src/parse.rs:
