//! The `sudoku-batch` binary: parse the command line, build the validated config, run the
//! pipeline, and turn the outcome into an exit code. Nothing else lives here.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::{CommandFactory, Parser};
use sudoku_batch::cli::{Cli, Command};
use sudoku_batch::config::{
    BenchConfig, ExplainConfig, GenerateConfig, MinimizeConfig, RenderConfig, SolveConfig,
};
use sudoku_batch::core::Cancel;
use sudoku_batch::core::generator::Unrated;
use sudoku_batch::core::geometry::Shape;
use sudoku_batch::pipeline::generate::variant::{GridMaker, SamuraiMaker, VariantWorker};
use sudoku_batch::pipeline::generate::{GenerateWorker, Graded};
use sudoku_batch::pipeline::{self, RunEnd, RunReport};

/// Exit code for a `--strict` run stopped by a record that is not uniquely solvable.
const EXIT_STRICT: u8 = 1;

/// Exit code for a run stopped by Ctrl-C or SIGTERM.
const EXIT_INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => {
            let cfg = match SolveConfig::from_args(&args) {
                Ok(c) => c,
                Err(e) => return fail(&e),
            };
            let interrupt = install_signal_handlers();
            report(
                pipeline::solve::run(&cfg, interrupt),
                &cfg.input.display_name(),
                cfg.quiet,
                cfg.summary_json.as_deref(),
            )
        }
        Command::Generate(args) => {
            let cfg = match GenerateConfig::from_args(&args) {
                Ok(c) => c,
                Err(e) => return fail(&e),
            };
            let interrupt = install_signal_handlers();
            let result = if let Some(target) = cfg.variant {
                if target.shape == Shape::Samurai {
                    let make = |c| VariantWorker::<SamuraiMaker>::new(target, c);
                    pipeline::generate::run(&cfg, make, interrupt)
                } else {
                    let make = |c| VariantWorker::<GridMaker>::new(target, c);
                    pipeline::generate::run(&cfg, make, interrupt)
                }
            } else if cfg.grade {
                let budget = cfg.grade_budget;
                pipeline::generate::run(
                    &cfg,
                    |c| GenerateWorker::new(Graded::new(budget), c),
                    interrupt,
                )
            } else {
                pipeline::generate::run(&cfg, |c| GenerateWorker::new(Unrated, c), interrupt)
            };
            report(result, "generate", cfg.quiet, cfg.summary_json.as_deref())
        }
        Command::Minimize(args) => {
            let cfg = match MinimizeConfig::from_args(&args) {
                Ok(c) => c,
                Err(e) => return fail(&e),
            };
            let interrupt = install_signal_handlers();
            report(
                pipeline::minimize::run(&cfg, interrupt),
                &cfg.input.display_name(),
                cfg.quiet,
                cfg.summary_json.as_deref(),
            )
        }
        Command::Render(args) => {
            let cfg = match RenderConfig::from_args(&args) {
                Ok(c) => c,
                Err(e) => return fail(&e),
            };
            let interrupt = install_signal_handlers();
            match pipeline::render::run(&cfg, Cancel::from_flag(&interrupt)) {
                Ok(r) => {
                    if !cfg.quiet || r.interrupted {
                        eprint!("{}", r.text());
                    }
                    if r.interrupted {
                        return ExitCode::from(EXIT_INTERRUPTED);
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e),
            }
        }
        Command::Explain(args) => {
            let cfg = match ExplainConfig::from_args(&args) {
                Ok(c) => c,
                Err(e) => return fail(&e),
            };
            let interrupt = install_signal_handlers();
            match pipeline::explain::run(&cfg, Cancel::from_flag(&interrupt)) {
                Ok(e) => {
                    let svg = cfg.format == sudoku_batch::config::ExplainFormat::Svg;
                    match (&cfg.output, svg) {
                        (None, _) => print!("{}", e.text),
                        (Some(dir), true) => eprintln!(
                            "explain: {} step pictures -> {}",
                            e.files.len(),
                            dir.display()
                        ),
                        (Some(path), false) => {
                            if let Err(err) = std::fs::write(path, &e.text) {
                                eprintln!("sudoku-batch: cannot write {}: {err}", path.display());
                                return ExitCode::from(2);
                            }
                        }
                    }
                    if e.interrupted {
                        eprintln!(
                            "sudoku-batch: interrupted; the steps above are those found so far"
                        );
                        return ExitCode::from(EXIT_INTERRUPTED);
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e),
            }
        }
        Command::Bench(args) => {
            let cfg = match BenchConfig::from_args(&args) {
                Ok(c) => c,
                Err(e) => return fail(&e),
            };
            let interrupt = install_signal_handlers();
            match pipeline::bench::run(&cfg, Cancel::from_flag(&interrupt)) {
                Ok(report) => {
                    let text = if args.json {
                        serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
                    } else {
                        report.text()
                    };
                    print!("{text}");
                    if report.interrupted {
                        eprintln!(
                            "sudoku-batch: interrupted after {} of {} files",
                            report.files.len(),
                            cfg.files.len()
                        );
                        return ExitCode::from(EXIT_INTERRUPTED);
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&e),
            }
        }
        Command::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "sudoku-batch",
                &mut std::io::stdout(),
            );
            ExitCode::SUCCESS
        }
        Command::Man => {
            let man = clap_mangen::Man::new(Cli::command());
            match man.render(&mut std::io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("sudoku-batch: cannot write the man page: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

/// SIGINT and SIGTERM set a flag the pipeline checks; a second signal ends at once.
fn install_signal_handlers() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGINT, SIGTERM};
        for sig in [SIGINT, SIGTERM] {
            // Registration only fails for forbidden signals; these two are allowed.
            let _ = signal_hook::flag::register_conditional_shutdown(
                sig,
                i32::from(EXIT_INTERRUPTED),
                Arc::clone(&flag),
            );
            let _ = signal_hook::flag::register(sig, Arc::clone(&flag));
        }
    }
    flag
}

fn fail(e: &sudoku_batch::error::Error) -> ExitCode {
    eprintln!("sudoku-batch: {e}");
    ExitCode::from(e.exit_code())
}

/// Prints the summary of a run (or its error) and maps how it ended to an exit code.
fn report<S: RunReport>(
    result: Result<(S, RunEnd), sudoku_batch::error::Error>,
    input: &str,
    quiet: bool,
    summary_json: Option<&std::path::Path>,
) -> ExitCode {
    let (summary, end) = match result {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    let (text, json, records) = (summary.text(), summary.json(), summary.done());
    if end == RunEnd::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    if !quiet {
        eprintln!("{text}");
    }
    if let Some(p) = summary_json
        && let Err(e) = std::fs::write(p, json + "\n")
    {
        eprintln!("sudoku-batch: cannot write {}: {e}", p.display());
        return ExitCode::from(2);
    }
    if let RunEnd::Strict(p) = &end {
        eprintln!(
            "{input}:{}:{}: strict: {}; stopping (rows up to this record were written)",
            p.line, p.col, p.message
        );
        return ExitCode::from(EXIT_STRICT);
    }
    if end == RunEnd::Interrupted {
        eprintln!(
            "sudoku-batch: interrupted after {records} records; the output holds only complete rows (a .partial file stays when writing to a file)"
        );
        return ExitCode::from(EXIT_INTERRUPTED);
    }
    ExitCode::SUCCESS
}
