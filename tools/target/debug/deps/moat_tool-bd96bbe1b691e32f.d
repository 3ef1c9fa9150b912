/work/main/tools/target/debug/deps/moat_tool-bd96bbe1b691e32f.rmeta: moat-tool/src/lib.rs moat-tool/src/cli.rs moat-tool/src/files.rs moat-tool/src/help.rs moat-tool/src/json.rs moat-tool/src/json_parse.rs moat-tool/src/parse.rs

/work/main/tools/target/debug/deps/libmoat_tool-bd96bbe1b691e32f.rlib: moat-tool/src/lib.rs moat-tool/src/cli.rs moat-tool/src/files.rs moat-tool/src/help.rs moat-tool/src/json.rs moat-tool/src/json_parse.rs moat-tool/src/parse.rs

/work/main/tools/target/debug/deps/moat_tool-bd96bbe1b691e32f.d: moat-tool/src/lib.rs moat-tool/src/cli.rs moat-tool/src/files.rs moat-tool/src/help.rs moat-tool/src/json.rs moat-tool/src/json_parse.rs moat-tool/src/parse.rs

moat-tool/src/lib.rs:
moat-tool/src/cli.rs:
moat-tool/src/files.rs:
moat-tool/src/help.rs:
moat-tool/src/json.rs:
moat-tool/src/json_parse.rs:
moat-tool/src/parse.rs:
