//! Dispatch: each command parsed by `args` run against the library, and its result
//! printed by `output`. The commands and flags are documented in `docs/command-line.md`.

mod args;
pub(crate) mod component;
mod conformance;
mod demo;
mod export;
mod import;
mod output;
mod progress_bar;

use std::io::Write as _;

use anyhow::{Context, Result};
use clap::Parser;

use ash_memory::{Caller, Clock, Correction, ListOptions, MemoryStore, NewMemory, NewPerson, SearchQuery, Turn};

use args::{Cli, Command, PeopleCommand, TokenCommand, ToolsCommand};

/// Writes what the command printed; see `output::flush`.
pub fn flush_output() -> std::io::Result<()> {
    output::flush()
}

/// Logs go to stderr: warnings by default (what the server does, for `serve`), more
/// with `ASH_LOG=debug`.
fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("ASH_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .without_time()
        .with_target(false)
        .init();
}

pub fn run() -> Result<()> {
    let cli = Cli::parse();
    init_logging(if matches!(cli.command, Command::Serve { .. } | Command::Ui { .. }) {
        "info"
    } else {
        "warn"
    });
    let clock = match &cli.now {
        Some(t) => Clock::fixed(t).map_err(anyhow::Error::msg).context("--now")?,
        None => Clock::System,
    };
    match &cli.command {
        Command::Bench(args) => return crate::bench::run(args, cli.json),
        Command::BenchRun { command } => return crate::bench::process::run_one(command),
        Command::Demo => return demo::run(),
        Command::Eval {
            file,
            embedder,
            ranks,
            #[cfg(feature = "native-policy")]
            native,
        } => {
            let set = crate::eval::EvalSet::parse(&ash_memory::read_import_text(file)?)?;
            // Opened first: a path that cannot be written is told before minutes of scoring.
            let mut ranks_file = match ranks {
                Some(path) => Some((
                    std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
                    path,
                )),
                None => None,
            };
            // A home of its own, so that the figures are the set's alone.
            let home = tempfile::tempdir()?;
            let model = ash_memory::embedded(embedder).expect("clap checked the name");
            let builder = MemoryStore::builder(home.path()).clock(clock).embedder(model);
            #[cfg(feature = "native-policy")]
            let report = if *native {
                set.score(&mut builder.open_native()?)?
            } else {
                set.score(&mut builder.open()?)?
            };
            #[cfg(not(feature = "native-policy"))]
            let report = set.score(&mut builder.open()?)?;
            if let Some((file, path)) = &mut ranks_file {
                let mut lines = String::new();
                for question in &report.per_question {
                    lines += &serde_json::to_string(question)?;
                    lines.push('\n');
                }
                file.write_all(lines.as_bytes())
                    .with_context(|| format!("writing the ranks to {}", path.display()))?;
            }
            output::Output { json: cli.json }.eval(&report);
            return Ok(());
        }
        Command::Component { out, sha256, encoder } => {
            return component::run(out.as_deref(), *sha256, *encoder);
        }
        Command::Conformance {
            files,
            keep,
            verbose,
            postgres,
        } => {
            if !conformance::run(files, keep.as_deref(), *verbose, postgres.as_deref())? {
                anyhow::bail!("some scenarios failed");
            }
            return Ok(());
        }
        _ => {}
    }
    let home = cli.home.clone().unwrap_or_else(ash_memory::default_home);
    if let Command::Token(command) = &cli.command {
        return token(&home, &cli, command);
    }
    let mut builder = progress_bar::on_stderr(MemoryStore::builder(home.clone()).clock(clock));
    if let Some(path) = &cli.component {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        builder = builder.component(bytes);
    }
    // A dry run reports what GC would do; auto_gc must not have done it already.
    if matches!(cli.command, Command::Gc { dry_run: true }) {
        builder = builder.skip_auto_gc();
    }
    let caller = Caller {
        user_id: Some(cli.user.clone().unwrap_or_else(|| "local".to_owned())),
        chat_id: cli.chat.clone(),
    };
    match cli.command {
        Command::Serve {
            socket,
            sandbox_socket,
            listen,
            mcp,
            readers,
            writers,
            ui,
        } => {
            let options = crate::server::ServeOptions {
                home,
                socket,
                sandbox_socket,
                listen,
                mcp,
                ui,
                readers: readers.into(),
                writers: writers.into(),
            };
            return crate::server::serve(options, builder);
        }
        Command::Mcp => return crate::server::mcp::serve_stdio(builder, caller),
        Command::Ui { listen, no_open } => {
            let options = crate::server::ui::UiOptions {
                listen,
                open: !no_open,
                user: cli.user.clone(),
                chat: cli.chat.clone(),
            };
            return crate::server::ui::run(&home, options, builder);
        }
        _ => {}
    }
    let mut store = builder.open()?;
    let out = output::Output { json: cli.json };

    match cli.command {
        Command::Add {
            text,
            memory_type,
            expires_days,
            subjects,
            shared,
            source,
            observed_at,
            context,
        } => {
            let item = NewMemory {
                content: text,
                memory_type,
                expires_in_days: expires_days,
                subjects,
                shared,
                source: Some(source),
                observed_at,
                context,
            };
            out.added(&store.add(&caller, &item)?);
        }
        Command::Import { file, skip_refused } => import::run(&mut store, &caller, &file, skip_refused, &out)?,
        Command::Migrate { from } => {
            let report = store.migrate_from(&from, |_, _| {})?;
            out.migrated(&report);
        }
        Command::Export {
            include_archive,
            out: file,
        } => export::run(&mut store, &caller, include_archive, file.as_deref(), &out)?,
        Command::Search { query, limit, about } => {
            let mut request = SearchQuery::new(query).limit(limit);
            request.about = about;
            let results = store.search(&caller, &request)?;
            for notice in &results.notices {
                let _ = writeln!(std::io::stderr(), "note: {notice}");
            }
            out.search(&results);
        }
        Command::List {
            limit,
            memory_type,
            include_expired,
            include_superseded,
        } => {
            let options = ListOptions {
                limit,
                memory_type,
                include_expired,
                include_superseded,
            };
            out.list(&store.list(&caller, &options)?);
        }
        Command::Show { id } => out.show(&store.get(&caller, &id)?),
        Command::Delete { id } => {
            let id = store.delete(&caller, &id)?;
            out.deleted(&id);
        }
        Command::History { id } => out.history(&store.history(&caller, &id)?),
        Command::Gc { dry_run } => out.gc(&store.gc(dry_run)?),
        Command::Compact { older_than, force } => out.compact(&store.compact(older_than, force)?, older_than),
        Command::RebuildIndex => out.rebuilt(&store.rebuild_index()?),
        Command::Stats => out.stats(&store.stats()?),
        Command::Confirm { id } => out.confirmed(&store.confirm(&caller, &id)?),
        Command::Correct {
            id,
            text,
            memory_type,
            expires_days,
            subjects,
        } => {
            let correction = Correction {
                content: text,
                memory_type,
                expires_in_days: expires_days,
                subjects: (!subjects.is_empty()).then_some(subjects),
            };
            out.corrected(&store.correct(&caller, &id, &correction)?)
        }
        Command::Reflect => out.reflection(&store.reflect(&caller)?),
        Command::Doctor { fix } => {
            let findings = store.doctor(fix)?;
            out.doctor(&findings);
            if findings.iter().any(|f| !f.ok && !f.fixed) {
                anyhow::bail!("doctor found problems it did not fix");
            }
        }
        Command::People(people) => match people {
            PeopleCommand::List => out.people(&store.people_list(&caller)?),
            PeopleCommand::Show { reference } => out.person(&store.people_show(&caller, &reference)?),
            PeopleCommand::Add {
                name,
                relation,
                aliases,
            } => {
                let person = NewPerson {
                    name,
                    relation,
                    aliases,
                };
                out.person(&store.people_add(&caller, &person)?)
            }
            PeopleCommand::Alias { reference, alias } => out.person(&store.people_alias(&caller, &reference, &alias)?),
            PeopleCommand::Merge { keep, merge } => out.person(&store.people_merge(&caller, &keep, &merge)?),
            PeopleCommand::Forget { reference, purge } => {
                out.forgotten(&store.people_forget(&caller, &reference, purge)?, purge)
            }
        },
        Command::Context {
            message,
            max_tokens,
            session,
        } => out.context(&store.context_in(&caller, &message, max_tokens, session.as_deref())?),
        Command::Turn {
            session,
            provider,
            user_message,
            assistant_message,
        } => {
            let turn = Turn {
                session,
                provider: Some(provider),
                user_message,
                assistant_message,
            };
            out.stored_turn(&store.persist_turn(&caller, &turn)?)
        }
        Command::Extract { session } => out.extraction(&store.extract(&caller, session.as_deref())?),
        Command::Profile => out.profile(&store.profile(&caller)?),
        Command::Tools { call: None } => out.tools(&store.tool_schemas()?),
        Command::Tools {
            call: Some(ToolsCommand::Call { name, arguments }),
        } => out.tool_result(&store.tool_call(&caller, &name, &arguments)?),
        Command::Bench(_)
        | Command::BenchRun { .. }
        | Command::Demo
        | Command::Eval { .. }
        | Command::Component { .. }
        | Command::Conformance { .. }
        | Command::Serve { .. }
        | Command::Ui { .. }
        | Command::Mcp
        | Command::Token(_) => {
            unreachable!("handled above")
        }
    }
    Ok(())
}

/// `token issue|revoke|list`: needs the home, not the policy component.
fn token(home: &std::path::Path, cli: &Cli, command: &TokenCommand) -> Result<()> {
    ash_memory::create_home_folder(home)?;
    let book = crate::server::tokens::TokenBook::new(home);
    let out = output::Output { json: cli.json };
    match command {
        TokenCommand::Issue { ttl } => {
            // A token is authority handed out: whose it is must be said, not defaulted.
            let Some(user) = &cli.user else {
                anyhow::bail!("say whose token it is: token issue --user ID [--chat ID]");
            };
            let (token, issued) = book.issue(user, cli.chat.as_deref(), *ttl)?;
            out.token_issued(&token, &issued);
        }
        TokenCommand::Revoke { id } => out.token_revoked(&book.revoke(id)?),
        TokenCommand::List => out.tokens(&book.list()?),
    }
    Ok(())
}
