/work/main/tools/target/debug/deps/calculate-e47b21e38abd60e6.d: calculate/src/main.rs calculate/src/eval.rs calculate/src/functions.rs calculate/src/lexer.rs

/work/main/tools/target/debug/deps/calculate-e47b21e38abd60e6: calculate/src/main.rs calculate/src/eval.rs calculate/src/functions.rs calculate/src/lexer.rs

calculate/src/main.rs:
calculate/src/eval.rs:
calculate/src/functions.rs:
calculate/src/lexer.rs:

# env-dep:CARGO_PKG_VERSION=0.1.0
