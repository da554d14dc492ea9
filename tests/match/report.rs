//! `--report`: the page a run writes, checked as a file and in a real browser.
//!
//! The browser tests run headless Chromium (`--dump-dom` for the page's structure as the
//! browser parsed it, `--screenshot` for what it drew): `$HOSHI_CHROMIUM`, else the first
//! of `chromium`, `chromium-browser` and `google-chrome` on the `PATH`. Without one they
//! say so on stderr and pass, except where `CI` is set: CI installs Chromium (`.ci/run`),
//! so there a missing browser fails them rather than letting them pass untested.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use super::{FAULTY, HOSHI, data, parse_pgn, run_match, scratch};

const HOSTILE: &str = "<script>alert(1)</script>";
/// The ABOUT name of the hostile engine: closing the title would let a script in.
const HOSTILE_ABOUT: &str = "</title><script>alert(2)</script>";
/// A browser still running after this is hung: it is killed and the test fails.
const BROWSER_WATCHDOG: Duration = Duration::from_secs(90);

/// The headless browser to use, or why there is none.
fn browser() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("HOSHI_CHROMIUM") {
        let path = PathBuf::from(path);
        // A browser named on purpose that is not there is a mistake, never a skip.
        assert!(
            path.is_file(),
            "HOSHI_CHROMIUM={} is no file",
            path.display()
        );
        return Ok(path);
    }
    let names = ["chromium", "chromium-browser", "google-chrome"];
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in names {
            let candidate = dir
                .join(name)
                .with_extension(std::env::consts::EXE_EXTENSION);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(format!(
        "no headless browser: HOSHI_CHROMIUM is not set and none of {} is on the PATH",
        names.join(", ")
    ))
}

/// The browser, or `None` after saying why the browser checks of `test` are skipped; with
/// `CI` set, a missing browser fails the test.
fn browser_or_skip(test: &str) -> Option<PathBuf> {
    match browser() {
        Ok(path) => Some(path),
        Err(why) => {
            let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
            assert!(
                !ci,
                "{why}; CI is set, where the browser tests must run: install chromium \
                 (.ci/run does) or set HOSHI_CHROMIUM"
            );
            // Straight to the process's stderr: the test harness would hide an eprintln!
            // of a passing test, and a skip must be seen.
            let _ = writeln!(
                std::io::stderr().lock(),
                "SKIPPED the browser checks of {test}: {why}. Install chromium (Debian: apt-get install chromium) \
                 or set HOSHI_CHROMIUM to run it."
            );
            None
        }
    }
}

/// Runs the headless browser on the page at `page` with `args`, in a profile of its own
/// under `dir`; returns its stdout.
fn headless(browser: &Path, dir: &Path, page: &Path, args: &[&str]) -> String {
    let profile = dir.join("browser-profile");
    let url = format!(
        "file://{}",
        page.canonicalize()
            .unwrap()
            .display()
            .to_string()
            .replace('\\', "/")
    );
    let mut child = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(&url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > BROWSER_WATCHDOG {
            child.kill().unwrap();
            panic!("the browser did not finish within {BROWSER_WATCHDOG:?}: {args:?}");
        }
        thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{} failed: {}",
        browser.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The body rows of the table `id` in `html`, each as its cells' texts.
fn table(html: &str, id: &str) -> Vec<Vec<String>> {
    let start = html
        .find(&format!("<table id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no table {id} in {html}"));
    let rest = &html[start..];
    let body = &rest[rest.find("<tbody>").unwrap()..rest.find("</table>").unwrap()];
    body.split("<tr")
        .skip(1)
        .map(|row| {
            row.split('<')
                .filter_map(|piece| piece.split_once('>').map(|(_, text)| text.trim()))
                .filter(|text| !text.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

/// The targets of the links of class `class`.
fn links<'h>(html: &'h str, class: &str) -> Vec<&'h str> {
    let start = format!("class=\"{class}\" href=\"");
    html.split(&start)
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect()
}

/// The width and height of a PNG image, from its header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn a_tournament_page_renders_in_a_browser_with_every_engine_text_inert() {
    let Some(browser) =
        browser_or_skip("a_tournament_page_renders_in_a_browser_with_every_engine_text_inert")
    else {
        return;
    };
    let dir = scratch("report-browser");
    let engines = dir.join("engines.ini");
    std::fs::write(
        &engines,
        format!(
            "[steady]\ncommand = {FAULTY}\n\n[{HOSTILE}]\n\
             command = {FAULTY} --random --seed 7 --about-name \"{HOSTILE_ABOUT}\"\n\n\
             [random]\ncommand = {FAULTY} --random --seed 3\n"
        ),
    )
    .unwrap();
    // The page in a folder of its own, so its links have to climb out of it.
    std::fs::create_dir_all(dir.join("page")).unwrap();
    let page = dir.join("page/report.html");
    let (ok, out, err) = run_match(
        &format!(
            "--games 2 --repeat --size 9 --tc 0/0.5 --openings-format pos --seed 1 \
             --pgn {0}/games.pgn --sgf {0}/games.sgf --psq {0}/psq --report {1}",
            dir.display(),
            page.display()
        ),
        &[
            "--engines",
            engines.to_str().unwrap(),
            "--openings",
            data("openings-9x9.pos.txt").to_str().unwrap(),
        ],
    );
    assert!(ok, "{out}{err}");

    let dom = headless(&browser, &dir, &page, &["--dump-dom"]);
    // The browser parsed no script, and neither name got out of its text.
    assert!(!dom.to_lowercase().contains("<script"), "{dom}");
    assert_eq!(dom.matches("<title>").count(), 1, "{dom}");
    assert!(
        dom.contains("<title>Tournament: round robin of 3 engines</title>"),
        "{dom}"
    );
    let shown = |text: &str| text.replace('<', "&lt;").replace('>', "&gt;");
    assert!(dom.contains(&shown(HOSTILE_ABOUT)), "{dom}");
    let crosstable = table(&dom, "crosstable");
    let names: Vec<&str> = crosstable.iter().map(|row| row[1].as_str()).collect();
    assert_eq!(names, ["steady", shown(HOSTILE).as_str(), "random"]);
    // The crosstable is the summary's, row by row (no name here has a space).
    let text_rows: Vec<Vec<String>> = out
        .lines()
        .skip_while(|l| !l.starts_with("Crosstable"))
        .skip(2)
        .take(3)
        .map(|l| l.split_whitespace().map(shown).collect())
        .collect();
    assert_eq!(crosstable, text_rows, "{out}");
    assert_eq!(table(&dom, "ratings").len(), 3);
    let chart = &dom[dom
        .find("<svg id=\"ratings-chart\"")
        .expect("a rating chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    // Each engine's row is labelled (a long name cut short).
    for name in ["steady", "random", "<script>alert(1)"] {
        assert!(
            chart.contains(&format!(">{}", shown(name))),
            "{name}: {chart}"
        );
    }

    // Every link is relative and reaches the record it names.
    let records = links(&dom, "record");
    assert_eq!(records, ["../games.pgn", "../games.sgf", "../psq/"]);
    let games = links(&dom, "game-record");
    assert_eq!(games.len(), 6 * 3, "{dom}");
    for target in records.iter().chain(&games) {
        assert!(dir.join("page").join(target).exists(), "{target}");
    }
    assert_eq!(table(&dom, "games").len(), 6);
    assert!(games.contains(&"../psq/game-0006.psq"), "{games:?}");

    let shot = dir.join("page.png");
    headless(
        &browser,
        &dir,
        &page,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,1600",
        ],
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    assert_eq!(png_size(&png), (1200, 1600));
    // A blank page compresses to a few kilobytes; tables, text and charts do not.
    assert!(png.len() > 20_000, "{} bytes", png.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_page_draws_its_sprt_and_its_merge_gives_the_same_verdict() {
    let browser =
        browser_or_skip("a_match_page_draws_its_sprt_and_its_merge_gives_the_same_verdict");
    let dir = scratch("report-sprt");
    let (pgn, page) = (dir.join("games.pgn"), dir.join("match.html"));
    let (ok, out, err) = run_match(
        &format!(
            "--name steady --name random --games 60 --repeat --size 9 --tc 500 \
             --sprt 0 100 0.05 0.05 --seed 2 --pgn {} --report {}",
            pgn.display(),
            page.display()
        ),
        &[
            "--engine",
            FAULTY,
            "--engine",
            &format!("{FAULTY} --random --seed 3"),
            "--openings",
            data("renju26_offset.txt").to_str().unwrap(),
        ],
    );
    assert!(ok, "{out}{err}");
    let verdict = out.lines().find(|l| l.starts_with("SPRT")).unwrap();
    assert!(verdict.contains("H1 accepted"), "{out}");
    let played = parse_pgn(&std::fs::read_to_string(&pgn).unwrap()).len();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(&format!("<p id=\"sprt-verdict\">{verdict}</p>")),
        "{html}"
    );
    assert!(
        !html.contains("http-equiv=\"refresh\""),
        "a final page stays put"
    );

    // The shards' merge draws the same verdict from the records alone.
    let merged = dir.join("merged.html");
    let (ok, _, err) = run_match(
        &format!(
            "--sprt 0 100 0.05 0.05 --report {} --merge",
            merged.display()
        ),
        &[pgn.to_str().unwrap()],
    );
    assert!(ok, "{err}");
    let merged_html = std::fs::read_to_string(&merged).unwrap();
    assert!(merged_html.contains(&format!("<p id=\"sprt-verdict\">{verdict}</p>")));
    assert_eq!(links(&merged_html, "game-record").len(), played);

    let Some(browser) = browser else {
        return;
    };
    let dom = headless(&browser, &dir, &page, &["--dump-dom"]);
    let chart = &dom[dom.find("<svg id=\"llr-chart\"").expect("an LLR chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    assert_eq!(chart.matches("class=\"bound\"").count(), 2, "{chart}");
    let points = chart
        .split("points=\"")
        .nth(1)
        .and_then(|p| p.split('"').next())
        .unwrap();
    // The LLR before the first game, then after each.
    assert_eq!(points.split(' ').count(), played + 1, "{points}");
    assert_eq!(table(&dom, "score").len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_page_is_rewritten_whole_after_every_game() {
    let dir = scratch("report-live");
    let page = dir.join("live.html");
    let mut child = Command::new(HOSHI)
        .arg("match")
        .args(
            format!(
                "--name a --name b --games 4 --size 9 --tc 0/1 --report {}",
                page.display()
            )
            .split_whitespace(),
        )
        .args([
            "--engine",
            FAULTY,
            "--engine",
            &format!("{FAULTY} --fault late --at 1 --late-ms 300"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Every version read is a whole page; the games played grow one at a time.
    let mut seen = Vec::new();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(30), "the match hung");
        if let Ok(html) = std::fs::read_to_string(&page) {
            assert!(html.ends_with("</html>\n"), "a torn page: {html}");
            let played = html
                .split("<li>")
                .nth(1)
                .and_then(|fact| fact.split(" of 4 games played").next())
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or_else(|| panic!("no games played in {html}"));
            // A page of the run going on asks to be reloaded, the final one not.
            let last = html.contains("Final.");
            assert_eq!(!last, html.contains("http-equiv=\"refresh\""), "{html}");
            if seen.last() != Some(&played) {
                seen.push(played);
            }
        }
        thread::sleep(Duration::from_millis(20));
    }
    assert!(child.wait().unwrap().success());
    let last = std::fs::read_to_string(&page).unwrap();
    assert!(last.contains("4 of 4 games played") && last.contains("Final."));
    assert!(!last.contains("http-equiv=\"refresh\""));
    // At 300 ms a game, the reads catch the page before and between games.
    assert!(
        seen.len() >= 3 && seen.windows(2).all(|w| w[0] < w[1]),
        "{seen:?}"
    );

    // A page that cannot be written stops the run before any game or record.
    let refused = dir.join("refused.pgn");
    let (ok, out, err) = run_match(
        &format!(
            "--games 2 --size 9 --pgn {} --report {}",
            refused.display(),
            dir.join("no/such/folder/r.html").display()
        ),
        &["--engine", FAULTY, "--engine", FAULTY],
    );
    assert!(
        !ok && out.is_empty() && err.contains("cannot write the report"),
        "{out}{err}"
    );
    assert!(!refused.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
