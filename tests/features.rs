//! `pbrain-hoshi features` from the command line: an input it cannot read stops it with the
//! reason on stderr and status 2, and leaves no output file (the export itself is tested in
//! hoshi-tools).

use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_pbrain-hoshi");

#[test]
fn an_unreadable_input_is_refused_with_the_reason_and_no_file() {
    let dir = std::env::temp_dir().join(format!("hoshi-features-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (bad, out) = (dir.join("bad.games"), dir.join("out.feat"));
    std::fs::write(&bad, b"HOSHIEVL not games").unwrap();
    for input in [bad, dir.join("missing.games")] {
        let run = Command::new(EXE)
            .arg("features")
            .arg(&input)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.starts_with("pbrain-hoshi features: "), "{stderr}");
        assert!(stderr.contains(&*input.to_string_lossy()), "{stderr}");
        assert!(!out.exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
