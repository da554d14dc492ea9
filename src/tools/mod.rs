//! Tools behind subcommands (not protocol mode): they may write to stdout and stderr.

pub mod matches;
