/work/main/tools/target/debug/deps/calculate-dae6fc1191082fc9: calculate/src/main.rs calculate/src/eval.rs calculate/src/functions.rs calculate/src/lexer.rs

/work/main/tools/target/debug/deps/calculate-dae6fc1191082fc9.d: calculate/src/main.rs calculate/src/eval.rs calculate/src/functions.rs calculate/src/lexer.rs

calculate/src/main.rs:
calculate/src/eval.rs:
calculate/src/functions.rs:
calculate/src/lexer.rs:

# env-dep:CARGO_PKG_VERSION=0.1.0
