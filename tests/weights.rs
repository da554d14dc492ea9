//! `--weights FILE` on the command line: a set written by `train` plays, a bad file stops
//! the engine before the protocol with a reason on stderr, and nothing on stdout. (End of
//! input, unlike END, lets the engine answer what it was asked first.)

use std::io::Write;
use std::process::{Command, Stdio};

const EXE: &str = env!("CARGO_BIN_EXE_pbrain-hoshi");

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("hoshi-weights-{}-{name}", std::process::id()))
}

/// The hand-set tables as a weights file written by `train`, at `temp(name)`.
fn handset_weights(name: &str) -> std::path::PathBuf {
    let path = temp(name);
    let out = Command::new(EXE)
        .args(["train", "--init", "handset", "--epochs", "0", "--out"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

#[test]
fn a_trained_file_plays_and_a_bad_one_is_refused_before_the_protocol() {
    let good = handset_weights("handset.weights");

    let mut engine = Command::new(EXE)
        .arg("--weights")
        .arg(&good)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    engine
        .stdin
        .take()
        .unwrap()
        .write_all(b"INFO max_node 2000\nSTART 15\nBEGIN\n")
        .unwrap();
    let out = engine.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[0], "OK");
    assert!(out.stderr.is_empty());

    let bad = temp("bad.weights");
    std::fs::write(&bad, b"HOSHIEVL\x01\x00\x00\x00 cut short").unwrap();
    for path in [bad.clone(), temp("missing.weights")] {
        let out = Command::new(EXE)
            .arg("--weights")
            .arg(&path)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--weights"), "{err}");
    }
    let _ = std::fs::remove_file(good);
    let _ = std::fs::remove_file(bad);
}

/// `analyse` evaluates with `--weights` too: the hand-set tables score a position
/// otherwise than the built-in ones, and a bad file stops it.
#[test]
fn analyse_evaluates_with_the_weights_file() {
    let handset = handset_weights("analyse-handset.weights");
    let analyse = |weights: Option<&std::path::Path>| {
        let mut cmd = Command::new(EXE);
        if let Some(w) = weights {
            cmd.arg("--weights").arg(w);
        }
        let out = cmd
            .args(["analyse", "h8i9j10h10", "--depth", "2", "--json"])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, builtin) = analyse(None);
    assert_eq!(code, Some(0));
    let (code, hand) = analyse(Some(&handset));
    assert_eq!(code, Some(0));
    assert_ne!(builtin, hand);
    let (code, out) = analyse(Some(&temp("missing-analyse.weights")));
    assert_eq!(code, Some(2));
    assert!(out.is_empty());
    let _ = std::fs::remove_file(handset);
}
