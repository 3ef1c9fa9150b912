/** Hand-written help texts in the layouts of popular argument parsers, as they print them. */

/** clap 4, `--help` of a command with long help: each item's help under it, "Possible values:" lists. */
export const CLAP_LONG = `grep-lite 2.1.0
Search files for a pattern

Searches each FILE for lines matching PATTERN and prints them. Binary files
are skipped.

Usage: grep-lite [OPTIONS] --pattern <PATTERN> [FILE]...

Arguments:
  [FILE]...
          Files to search; standard input when none are given

Options:
  -e, --pattern <PATTERN>
          The regular expression to look for

  -m, --max-count <NUM>
          Stop after NUM matching lines

          [default: 100]

      --color <WHEN>
          When to use colours

          Possible values:
          - auto:   Colour when writing to a terminal
          - always: Always colour
          - never:  Never colour

          [default: auto]

  -i, --ignore-case
          Match case-insensitively

      --threshold <RATIO>
          Minimum similarity, from 0 to 1

  -t, --type <TYPE>...
          Only search files of this type (repeatable)

  -h, --help
          Print help (see a summary with '-h')

  -V, --version
          Print version
`;

/** clap 4, `-h` of the same command: one line per item. */
export const CLAP_SHORT = `grep-lite 2.1.0
Search files for a pattern

Usage: grep-lite [OPTIONS] --pattern <PATTERN> [FILE]...

Arguments:
  [FILE]...  Files to search; standard input when none are given

Options:
  -e, --pattern <PATTERN>  The regular expression to look for
  -m, --max-count <NUM>    Stop after NUM matching lines [default: 100]
      --color <WHEN>       When to use colours [default: auto] [possible values: auto, always, never]
  -i, --ignore-case        Match case-insensitively
      --threshold <RATIO>  Minimum similarity, from 0 to 1
  -t, --type <TYPE>...     Only search files of this type (repeatable)
  -q, --quiet              Print nothing, exit 0 on a match
  -h, --help               Print help (see more with '--help')
  -V, --version            Print version
`;

/** Python argparse (3.10+ says "options:"), with a wrapped usage and a choices option. */
export const ARGPARSE = `usage: resize.py [-h] [-W WIDTH] [--scale SCALE] [--mode {fit,fill,stretch}]
                 [--verbose]
                 input [output]

Resize an image to the given width.

positional arguments:
  input                 the image to read
  output                where to write the result (default: alongside the
                        input)

options:
  -h, --help            show this help message and exit
  -W WIDTH, --width WIDTH
                        target width in pixels
  --scale SCALE         scale factor, e.g. 0.5 (default: 1.0)
  --mode {fit,fill,stretch}
                        how to fit the aspect ratio
  --verbose             print progress

Examples are in the README.
`;

/** cobra / pflag (Go): typed flags, "(default …)", aliases in Available Commands. */
export const COBRA = `Deploy manages application deployments.

Usage:
  deploy [flags]
  deploy [command]

Available Commands:
  completion  Generate the autocompletion script for the specified shell
  help        Help about any command
  rollback    Roll back to a previous release
  status, st  Show the rollout status

Flags:
      --dry-run              print what would happen without doing it
  -n, --namespace string     Kubernetes namespace (default "default")
  -r, --replicas int         number of replicas (default 3)
      --timeout duration     how long to wait (default 5m0s)
      --tags strings         tags to apply
      --cpu float            CPU limit (default 0.5)
  -h, --help                 help for deploy

Use "deploy [command] --help" for more information about a command.
`;
