//! `--report FILE.html`: a match, a tournament or merged shards as one web page, rewritten
//! after every game so that a long run can be followed by reloading it.
//!
//! The page is one self-contained file: styles inline, charts drawn here as inline SVG, no
//! script, font or request to any server, so it reads the same from a laptop, a cluster's
//! shared disk or a CI artefact. It shows what the text summary prints and nothing it
//! does not know: a [`Report`] is filled from the very values the summary is printed from
//! ([`Standings`], [`MatchScore`], [`SprtTrace`], the incidents' lines), so the two agree.
//!
//! Engines choose their names and what they print, users their names and file names: every
//! such text goes through [`escape`] on its way to the page, and the page's
//! Content-Security-Policy ([`CSP`]) allows no script at all, so an engine called
//! `<script>alert(1)</script>` shows as that text, and a missed escape would still run
//! nothing.
//!
//! Each version is written to a file beside the page and renamed over it: a reader who
//! reloads during a run gets the previous page or the next, never half of one. A page of a
//! run still going asks the browser to reload it every [`REFRESH_SECONDS`].
//!
//! The records are linked by paths relative to the page, so a folder of results can be
//! moved or served as a whole. PGN and SGF files hold every game and have no anchor a
//! browser can jump to, so a game links those files and, with `--psq`, its own PSQ file.

use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use hoshi::board::Color;

use super::pgn::{self, ReadGame};
use super::psq;
use super::rating::Rating;
use super::referee::{PlayedGame, Termination};
use super::standings::Standings;
use super::stats::{Penta, SprtTrace};
use super::{MatchScore, fmt_elo};
use crate::game::foul_name;

/// The page's Content-Security-Policy: inline styles and `data:` images, nothing else (no
/// script, no connection, no font, no frame).
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/// How often the page of a run still going asks to be reloaded.
pub const REFRESH_SECONDS: u32 = 30;

/// Everything the page shows, borrowed from the run's state when the page is written.
#[derive(Clone, Debug)]
pub struct Report<'a> {
    /// The page's title and heading, the summary's first line: `Match: a vs b`.
    pub title: String,
    /// The summary's lines under it: the games played, the conditions, the openings.
    pub facts: Vec<String>,
    /// Whether the run is over (the page of a run going on reloads itself).
    pub finished: bool,
    pub engines: Vec<EngineRow<'a>>,
    pub results: Results<'a>,
    /// The summary's lines of endings, faults and quirks.
    pub incidents: Vec<String>,
    /// The record files the run writes, or the merge read.
    pub records: &'a [Record],
    /// The games, in any order (the page lists them by number).
    pub games: &'a [GameRow],
}

/// One engine of the run.
#[derive(Clone, Copy, Debug)]
pub struct EngineRow<'a> {
    pub name: &'a str,
    /// Its command line (empty when unknown, as in a merge).
    pub argv: &'a [String],
    /// Its first answer to `ABOUT`, once it gave one.
    pub about: Option<&'a str>,
}

/// The results, as the summary prints them.
#[derive(Clone, Copy, Debug)]
pub enum Results<'a> {
    /// A two-engine match: the first engine's score, and its SPRT with `--sprt`.
    Match {
        score: &'a MatchScore,
        sprt: Option<&'a SprtTrace>,
    },
    /// A tournament's standings, or the merged standings of its shards.
    Standings(&'a Standings),
}

impl Results<'_> {
    fn sprt(&self) -> Option<&SprtTrace> {
        match self {
            Results::Match { sprt, .. } => *sprt,
            Results::Standings(s) => s.duel.as_ref().and_then(|d| d.sprt.as_ref()),
        }
    }
}

/// What a record file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// One PGN file of every game's tags and result.
    Pgn,
    /// One SGF file of every game's moves.
    Sgf,
    /// A folder of PSQ files, one a game.
    Psq,
}

impl RecordKind {
    fn label(self) -> &'static str {
        match self {
            RecordKind::Pgn => "PGN",
            RecordKind::Sgf => "SGF",
            RecordKind::Psq => "PSQ",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            RecordKind::Pgn => "every game's tags and result (BayesElo, Ordo, --merge)",
            RecordKind::Sgf => "every game's moves and times",
            RecordKind::Psq => "a Piskvork file per game",
        }
    }
}

/// A record file (or, for PSQ, folder) of the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub kind: RecordKind,
    pub path: PathBuf,
}

impl Record {
    /// Where game `number` is recorded in this record.
    #[must_use]
    pub fn of_game(&self, number: usize) -> Link {
        Link {
            kind: self.kind,
            path: match self.kind {
                RecordKind::Psq => self.path.join(psq::file_name(number)),
                RecordKind::Pgn | RecordKind::Sgf => self.path.clone(),
            },
        }
    }
}

/// A link to a record of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub kind: RecordKind,
    pub path: PathBuf,
}

/// One line of the list of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game's number in the schedule, from 1.
    pub number: usize,
    /// The names of the players with black and with white.
    pub players: [String; 2],
    pub winner: Option<Color>,
    /// PGN's `Termination` word, with what happened when the game was played in this run
    /// (`time forfeit: timeout: no move within 400 ms (killed)`).
    pub termination: String,
    pub links: Vec<Link>,
}

impl GameRow {
    /// A game played in this run, recorded in `records`.
    #[must_use]
    pub fn played(
        number: usize,
        players: [&str; 2],
        game: &PlayedGame,
        records: &[Record],
    ) -> GameRow {
        let word = pgn::termination(&game.ending);
        let termination = match &game.ending {
            Termination::Foul(foul) => format!("{word}: {}", foul_name(*foul)),
            Termination::Fault(fault) => format!("{word}: {fault}"),
            Termination::Five | Termination::FullBoard | Termination::Adjudicated(_) => {
                word.to_owned()
            }
        };
        GameRow {
            number,
            players: players.map(str::to_owned),
            winner: game.winner,
            termination,
            links: records.iter().map(|r| r.of_game(number)).collect(),
        }
    }

    /// A game read back from a PGN file (resumed or merged), with links to `links`.
    #[must_use]
    pub fn read(game: &ReadGame, links: Vec<Link>) -> GameRow {
        GameRow {
            number: game.id.number,
            players: game.names.clone(),
            winner: game.winner,
            termination: game.termination.clone().unwrap_or_else(|| "-".to_owned()),
            links,
        }
    }
}

/// A report page kept up to date through a run.
#[derive(Clone, Debug)]
pub struct ReportFile {
    path: PathBuf,
    /// The page's folder, which links are relative to.
    dir: PathBuf,
}

impl ReportFile {
    /// The page at `path`, checked to name a file that is none of the run's `records`.
    /// Nothing is written yet: the runner writes the first page before the first game, so
    /// that a page that cannot be written stops the run before it starts.
    pub fn new(path: &Path, records: &[Record]) -> Result<ReportFile, String> {
        if path.file_name().is_none() {
            return Err(format!(
                "--report {}: give the page's file name, such as report.html",
                path.display()
            ));
        }
        if let Some(r) = records
            .iter()
            .find(|r| normalized(&r.path) == normalized(path))
        {
            return Err(format!(
                "--report {} is also the run's {} record: give the page a file of its own",
                path.display(),
                r.kind.label()
            ));
        }
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Ok(ReportFile {
            path: path.to_path_buf(),
            dir,
        })
    }

    /// Renders `report` and replaces the page with it (through a temporary file beside it,
    /// renamed over it, so a reader never sees half a page).
    pub fn write(&self, report: &Report) -> Result<(), String> {
        let html = render(report, &self.dir);
        let mut name = self.path.file_name().unwrap_or_default().to_os_string();
        name.push(".tmp");
        let temporary = self.path.with_file_name(name);
        std::fs::write(&temporary, html).map_err(|e| {
            format!(
                "cannot write the report {}: {e}; does its folder exist, and may it be written?",
                self.path.display()
            )
        })?;
        std::fs::rename(&temporary, &self.path).map_err(|e| {
            // Best effort: the error below is the one worth reporting.
            let _ = std::fs::remove_file(&temporary);
            format!(
                "cannot replace the report {} with {}: {e}",
                self.path.display(),
                temporary.display()
            )
        })
    }
}

/// `text` made safe to put in HTML, between tags or in a quoted attribute: `&`, `<`, `>`,
/// `"` and `'` become entities. Every text the page did not write itself goes through here.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page of `report`, its links relative to the folder `dir`.
#[must_use]
pub fn render(report: &Report, dir: &Path) -> String {
    let mut page = String::new();
    let title = escape(&report.title);
    let refresh = if report.finished {
        String::new()
    } else {
        format!("<meta http-equiv=\"refresh\" content=\"{REFRESH_SECONDS}\">\n")
    };
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         {refresh}<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n"
    );
    let status = if report.finished {
        "Final.".to_owned()
    } else {
        let (date, time) = pgn::utc_now();
        format!(
            "In progress: written {date} {time} UTC, again after every game; the page reloads \
             every {REFRESH_SECONDS} s."
        )
    };
    let _ = writeln!(page, "<p class=\"status\">{}</p>", escape(&status));
    list(&mut page, "facts", &report.facts);
    engines(&mut page, &report.engines);
    match report.results {
        Results::Match { score, .. } => match_score(&mut page, score, &report.engines),
        Results::Standings(s) => standings(&mut page, s),
    }
    if let Some(trace) = report.results.sprt() {
        page.push_str("<h2>SPRT</h2>\n");
        page.push_str(&llr_chart(trace));
        let _ = writeln!(
            page,
            "<p id=\"sprt-verdict\">{}</p>",
            escape(&trace.report())
        );
    }
    if !report.incidents.is_empty() {
        page.push_str("<h2>Endings, faults and quirks</h2>\n");
        list(&mut page, "incidents", &report.incidents);
    }
    records(&mut page, report.records, dir);
    games(&mut page, report.games, dir);
    page.push_str("</body>\n</html>\n");
    page
}

/// The page's styles: readable tables, numbers aligned, charts scaled to the window.
const STYLE: &str = "\
body{font-family:system-ui,sans-serif;color:#1f2328;background:#fff;max-width:72em;\
margin:1.5em auto;padding:0 1em;line-height:1.4}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid #d0d7de}\
table{border-collapse:collapse;margin:.6em 0}\
th,td{border:1px solid #d0d7de;padding:.25em .6em;text-align:left;vertical-align:top}\
thead th{background:#f6f8fa}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\
tbody tr:nth-child(even){background:#f6f8fa}code{font-size:.9em}\
.status{color:#57606a}ul{padding-left:1.4em}\
svg{display:block;max-width:100%;height:auto;margin:.6em 0}\
svg text{font:12px system-ui,sans-serif;fill:#1f2328}";

/// A list of texts, each escaped.
fn list(page: &mut String, id: &str, items: &[String]) {
    let _ = writeln!(page, "<ul id=\"{id}\">");
    for item in items {
        let _ = writeln!(page, "<li>{}</li>", escape(item));
    }
    page.push_str("</ul>\n");
}

/// A table row of cells, each escaped; `numeric` cells are right-aligned.
fn row(page: &mut String, cells: &[(&str, bool)]) {
    page.push_str("<tr>");
    for (text, numeric) in cells {
        let class = if *numeric { " class=\"n\"" } else { "" };
        let _ = write!(page, "<td{class}>{}</td>", escape(text));
    }
    page.push_str("</tr>\n");
}

/// A table's head row.
fn head(page: &mut String, id: &str, cells: &[&str]) {
    let _ = write!(page, "<table id=\"{id}\">\n<thead><tr>");
    for cell in cells {
        let _ = write!(page, "<th>{}</th>", escape(cell));
    }
    page.push_str("</tr></thead>\n<tbody>\n");
}

fn engines(page: &mut String, engines: &[EngineRow]) {
    page.push_str("<h2>Engines</h2>\n");
    head(page, "engines", &["#", "name", "command", "ABOUT"]);
    for (k, e) in engines.iter().enumerate() {
        let command = if e.argv.is_empty() {
            "-".to_owned()
        } else {
            e.argv.join(" ")
        };
        row(
            page,
            &[
                (&(k + 1).to_string(), true),
                (e.name, false),
                (&command, false),
                (e.about.unwrap_or("-"), false),
            ],
        );
    }
    page.push_str("</tbody></table>\n");
}

fn match_score(page: &mut String, score: &MatchScore, engines: &[EngineRow]) {
    let [a, b] = [0, 1].map(|k| engines.get(k).map_or("", |e| e.name));
    page.push_str("<h2>Score</h2>\n");
    let _ = writeln!(page, "<p>{}</p>", escape(&score.score_line([a, b])));
    head(
        page,
        "score",
        &["engine", "as black", "as white", "total", "score"],
    );
    let totals = [score.total, score.total.flipped()];
    for ((name, wdl), total) in [a, b].iter().zip(&score.by_colour).zip(totals) {
        row(
            page,
            &[
                (name, false),
                (&wdl[0].to_string(), true),
                (&wdl[1].to_string(), true),
                (&total.to_string(), true),
                (&total.percent(), true),
            ],
        );
    }
    page.push_str("</tbody></table>\n<h2>Elo difference</h2>\n");
    let mark = match score.elo {
        Some(e) if e.elo.is_infinite() => Mark::Infinite(e.elo > 0.0),
        Some(e) => Mark::Interval {
            value: e.elo,
            low: e.low,
            high: e.high,
        },
        None => Mark::Unrated,
    };
    let bar = Bar {
        label: format!("{a} − {b}"),
        mark,
        text: match score.elo {
            Some(e) if e.elo.is_finite() => format!(
                "{} ({} to {})",
                fmt_elo(e.elo),
                fmt_elo(e.low),
                fmt_elo(e.high)
            ),
            Some(e) => fmt_elo(e.elo),
            None => "-".to_owned(),
        },
    };
    page.push_str(&rating_chart(&[bar]));
    let mut lines = vec![score.elo_line()];
    lines.extend(score.los_line());
    list(page, "elo", &lines);
    if let Some(penta) = score.penta {
        pentanomial(page, penta, a);
    }
}

fn pentanomial(page: &mut String, penta: Penta, first: &str) {
    page.push_str("<h2>Pentanomial</h2>\n");
    let _ = writeln!(
        page,
        "<p>Game pairs (one opening, colours swapped) by {}'s points in the pair: {}</p>",
        escape(first),
        escape(&penta.line())
    );
    head(page, "pentanomial", &["0", "0.5", "1", "1.5", "2", "pairs"]);
    let counts: Vec<String> = penta
        .0
        .iter()
        .chain(std::iter::once(&penta.pairs()))
        .map(u32::to_string)
        .collect();
    let cells: Vec<(&str, bool)> = counts.iter().map(|c| (c.as_str(), true)).collect();
    row(page, &cells);
    page.push_str("</tbody></table>\n");
}

fn standings(page: &mut String, s: &Standings) {
    let n = s.names.len();
    page.push_str("<h2>Crosstable</h2>\n");
    let _ = writeln!(page, "<p>{}.</p>", escape(&s.crosstable_heading()));
    let numbers: Vec<String> = (1..=n).map(|j| j.to_string()).collect();
    let mut columns = vec!["#", "engine"];
    columns.extend(numbers.iter().map(String::as_str));
    columns.extend(["points", "games", "score"]);
    head(page, "crosstable", &columns);
    for (i, number) in numbers.iter().enumerate() {
        let cells: Vec<String> = (0..n).map(|j| s.cell(i, j)).collect();
        let points = format!("{:.1}", s.total_points(i));
        let games = s.wdl[i].games().to_string();
        let percent = s.wdl[i].percent();
        let mut row_cells = vec![(number.as_str(), true), (s.names[i].as_str(), false)];
        row_cells.extend(cells.iter().map(|c| (c.as_str(), true)));
        row_cells.extend([
            (points.as_str(), true),
            (games.as_str(), true),
            (percent.as_str(), true),
        ]);
        row(page, &row_cells);
    }
    page.push_str("</tbody></table>\n<h2>Ratings</h2>\n");
    let _ = writeln!(page, "<p>{}.</p>", escape(&s.ratings_heading()));
    if let Some(why) = s.no_fit() {
        let _ = writeln!(page, "<p>{}</p>", escape(why));
    } else {
        let bars: Vec<Bar> = s
            .order
            .iter()
            .map(|&i| {
                let (elo, margin) = s.rating_text(i);
                Bar {
                    label: s.names[i].clone(),
                    mark: match s.fit.ratings[i] {
                        Rating::Finite { elo, margin } => Mark::Interval {
                            value: elo,
                            low: elo - margin,
                            high: elo + margin,
                        },
                        Rating::Infinite(above) => Mark::Infinite(above),
                        Rating::Unrated => Mark::Unrated,
                    },
                    text: match s.fit.ratings[i] {
                        Rating::Finite { .. } => format!("{elo} {margin}"),
                        Rating::Infinite(_) | Rating::Unrated => elo,
                    },
                }
            })
            .collect();
        page.push_str(&rating_chart(&bars));
    }
    head(
        page,
        "ratings",
        &["rank", "engine", "Elo", "95%", "points", "games", "score"],
    );
    for (rank, &i) in s.order.iter().enumerate() {
        let (elo, margin) = s.rating_text(i);
        row(
            page,
            &[
                (&(rank + 1).to_string(), true),
                (&s.names[i], false),
                (&elo, true),
                (&margin, true),
                (&format!("{:.1}", s.total_points(i)), true),
                (&s.wdl[i].games().to_string(), true),
                (&s.wdl[i].percent(), true),
            ],
        );
    }
    page.push_str("</tbody></table>\n");
    if let Some(penta) = s.duel.as_ref().and_then(|d| d.penta) {
        pentanomial(page, penta, &s.names[0]);
    }
}

fn records(page: &mut String, records: &[Record], dir: &Path) {
    page.push_str("<h2>Records</h2>\n");
    if records.is_empty() {
        page.push_str("<p>No record files (--pgn, --sgf, --psq).</p>\n");
        return;
    }
    page.push_str("<ul id=\"records\">\n");
    for r in records {
        // A folder's link ends in `/`, so that the browser lists it.
        let slash = if r.kind == RecordKind::Psq { "/" } else { "" };
        let _ = writeln!(
            page,
            "<li>{}: <a class=\"record\" href=\"{}{slash}\">{}</a>, {}</li>",
            r.kind.label(),
            escape(&href(&r.path, dir)),
            escape(&r.path.display().to_string()),
            r.kind.describe()
        );
    }
    page.push_str("</ul>\n");
}

fn games(page: &mut String, games: &[GameRow], dir: &Path) {
    page.push_str("<h2>Games</h2>\n");
    let mut sorted: Vec<&GameRow> = games.iter().collect();
    sorted.sort_by_key(|g| g.number);
    head(
        page,
        "games",
        &["#", "black", "white", "winner", "termination", "records"],
    );
    for g in sorted {
        let winner = match g.winner {
            Some(Color::Black) => g.players[0].as_str(),
            Some(Color::White) => g.players[1].as_str(),
            None => "draw",
        };
        let _ = write!(
            page,
            "<tr id=\"game-{0}\"><td class=\"n\">{0}</td><td>{1}</td><td>{2}</td><td>{3}</td>\
             <td>{4}</td><td>",
            g.number,
            escape(&g.players[0]),
            escape(&g.players[1]),
            escape(winner),
            escape(&g.termination)
        );
        for (k, link) in g.links.iter().enumerate() {
            let _ = write!(
                page,
                "{}<a class=\"game-record\" href=\"{}\">{}</a>",
                if k > 0 { " " } else { "" },
                escape(&href(&link.path, dir)),
                link.kind.label()
            );
        }
        page.push_str("</td></tr>\n");
    }
    page.push_str("</tbody></table>\n");
}

/// What a rating chart marks on a row.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mark {
    /// A rating and its interval (whose ends may be infinite).
    Interval { value: f64, low: f64, high: f64 },
    /// Scored every point (`true`) or none: no finite rating.
    Infinite(bool),
    /// No rating.
    Unrated,
}

/// One row of a rating chart: a name, its mark, and the numbers written beside it.
struct Bar {
    label: String,
    mark: Mark,
    text: String,
}

/// A chart's width in SVG units (the page scales it down to narrow windows).
const WIDTH: f64 = 860.0;

/// A linear map from values in `lo..=hi` to positions in `from..=to`.
#[derive(Clone, Copy, Debug)]
struct Scale {
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
}

impl Scale {
    /// The scale over `values` (the finite ones) and 0, widened by a margin so that no mark
    /// sits on the frame.
    fn over(values: impl Iterator<Item = f64>, from: f64, to: f64) -> Scale {
        let (mut lo, mut hi) = values
            .filter(|v| v.is_finite())
            .fold((0.0_f64, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if hi - lo < 1e-9 {
            lo -= 1.0;
            hi += 1.0;
        }
        let pad = 0.06 * (hi - lo);
        Scale {
            lo: lo - pad,
            hi: hi + pad,
            from,
            to,
        }
    }

    /// The position of `v`, infinite values at the ends.
    fn at(&self, v: f64) -> f64 {
        let v = v.clamp(self.lo, self.hi);
        self.from + (v - self.lo) / (self.hi - self.lo) * (self.to - self.from)
    }

    /// Round values to mark along the scale: steps of 1, 2 or 5 times a power of ten,
    /// the one nearest to giving `count` of them.
    fn ticks(&self, count: f64) -> Vec<f64> {
        let raw = (self.hi - self.lo) / count;
        let magnitude = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * magnitude)
            .min_by(|a, b| (a / raw).ln().abs().total_cmp(&(b / raw).ln().abs()))
            .unwrap_or(magnitude);
        let first = (self.lo / step).ceil() as i64;
        let last = (self.hi / step).floor() as i64;
        (first..=last).map(|k| k as f64 * step).collect()
    }
}

/// A tick's label: no decimals for whole numbers, else as few as the step needs.
fn tick_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}

/// Names longer than this are cut in the charts (the tables give them whole).
const LABEL_CHARS: usize = 24;

fn short(label: &str) -> String {
    if label.chars().count() > LABEL_CHARS {
        let cut: String = label.chars().take(LABEL_CHARS - 1).collect();
        format!("{cut}…")
    } else {
        label.to_owned()
    }
}

/// Ratings as dots with their 95 % intervals as bars, on one Elo axis, with a line at 0.
fn rating_chart(bars: &[Bar]) -> String {
    const ROW: f64 = 26.0;
    const TOP: f64 = 30.0;
    const TEXT: f64 = 190.0;
    let longest = bars
        .iter()
        .map(|b| short(&b.label).chars().count())
        .max()
        .unwrap_or(0);
    let left = (longest as f64 * 7.0 + 20.0).clamp(60.0, 200.0);
    let height = TOP + ROW * bars.len() as f64 + 12.0;
    let values = bars.iter().flat_map(|b| match b.mark {
        Mark::Interval { value, low, high } => vec![value, low, high],
        Mark::Infinite(_) | Mark::Unrated => Vec::new(),
    });
    let x = Scale::over(values, left, WIDTH - TEXT);
    let mut svg = format!(
        "<svg id=\"ratings-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" \
         height=\"{height:.0}\" viewBox=\"0 0 {WIDTH} {height:.0}\" role=\"img\" \
         aria-label=\"Ratings with their 95% intervals\">\n"
    );
    let bottom = height - 6.0;
    for t in x.ticks(8.0) {
        let at = x.at(t);
        let stroke = if t == 0.0 { "#57606a" } else { "#d0d7de" };
        let _ = writeln!(
            svg,
            "<line x1=\"{at:.1}\" y1=\"{:.1}\" x2=\"{at:.1}\" y2=\"{bottom:.1}\" stroke=\"{stroke}\"/>\
             <text x=\"{at:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            TOP - 8.0,
            TOP - 12.0,
            tick_label(t)
        );
    }
    for (k, bar) in bars.iter().enumerate() {
        let y = TOP + ROW * (k as f64 + 0.5);
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 10.0,
            y + 4.0,
            escape(&short(&bar.label))
        );
        match bar.mark {
            Mark::Interval { value, low, high } => {
                let (l, v, h) = (x.at(low), x.at(value), x.at(high));
                let _ = writeln!(
                    svg,
                    "<line x1=\"{l:.1}\" y1=\"{y:.1}\" x2=\"{h:.1}\" y2=\"{y:.1}\" \
                     stroke=\"#0969da\" stroke-width=\"2\"/>"
                );
                for (end, finite, towards) in
                    [(l, low.is_finite(), -1.0), (h, high.is_finite(), 1.0)]
                {
                    let _ = writeln!(svg, "{}", end_mark(end, y, finite, towards));
                }
                let _ = writeln!(
                    svg,
                    "<circle cx=\"{v:.1}\" cy=\"{y:.1}\" r=\"4.5\" fill=\"#0969da\"/>"
                );
            }
            Mark::Infinite(above) => {
                let (end, towards) = if above {
                    (x.at(f64::INFINITY), 1.0)
                } else {
                    (x.at(f64::NEG_INFINITY), -1.0)
                };
                let _ = writeln!(svg, "{}", end_mark(end, y, false, towards));
            }
            Mark::Unrated => {}
        }
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            WIDTH - TEXT + 12.0,
            y + 4.0,
            escape(&bar.text)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The end of an interval at `x`: a cap when it is finite, else an arrowhead pointing
/// `towards` (+1 right, -1 left) off the chart.
fn end_mark(x: f64, y: f64, finite: bool, towards: f64) -> String {
    if finite {
        format!(
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#0969da\" \
             stroke-width=\"2\"/>",
            y - 6.0,
            y + 6.0
        )
    } else {
        let tip = x + 4.0 * towards;
        let back = x - 6.0 * towards;
        format!(
            "<polygon points=\"{tip:.1},{y:.1} {back:.1},{:.1} {back:.1},{:.1}\" fill=\"#0969da\"/>",
            y - 6.0,
            y + 6.0
        )
    }
}

/// Most points a line chart draws: a longer path is thinned to every k-th game (and the
/// last), which a chart this wide cannot tell from the whole.
const MAX_POINTS: usize = 2000;

/// The SPRT's LLR after each game, with its two bounds.
fn llr_chart(trace: &SprtTrace) -> String {
    const HEIGHT: f64 = 320.0;
    const LEFT: f64 = 56.0;
    const RIGHT: f64 = 150.0;
    const TOP: f64 = 14.0;
    const BOTTOM: f64 = 40.0;
    let (lower, upper) = trace.sprt.bounds();
    let games = trace.games();
    let x = Scale {
        lo: 0.0,
        hi: games.max(1) as f64,
        from: LEFT,
        to: WIDTH - RIGHT,
    };
    let y = Scale::over(
        trace.llr.iter().copied().chain([lower, upper]),
        HEIGHT - BOTTOM,
        TOP,
    );
    let mut svg = format!(
        "<svg id=\"llr-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" \
         height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" \
         aria-label=\"The SPRT's log-likelihood ratio after each game, with its bounds\">\n"
    );
    for t in y.ticks(6.0) {
        let at = y.at(t);
        let stroke = if t == 0.0 { "#57606a" } else { "#d0d7de" };
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{at:.1}\" x2=\"{:.1}\" y2=\"{at:.1}\" stroke=\"{stroke}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            WIDTH - RIGHT,
            LEFT - 6.0,
            at + 4.0,
            tick_label(t)
        );
    }
    for t in x.ticks(8.0).into_iter().filter(|t| t.fract() == 0.0) {
        let at = x.at(t);
        let _ = writeln!(
            svg,
            "<line x1=\"{at:.1}\" y1=\"{TOP}\" x2=\"{at:.1}\" y2=\"{:.1}\" stroke=\"#d0d7de\"/>\
             <text x=\"{at:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            HEIGHT - BOTTOM,
            HEIGHT - BOTTOM + 16.0,
            tick_label(t)
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">games</text>\
         <text x=\"14\" y=\"{:.1}\" transform=\"rotate(-90 14 {:.1})\" \
         text-anchor=\"middle\">LLR</text>",
        (LEFT + WIDTH - RIGHT) / 2.0,
        HEIGHT - 6.0,
        (TOP + HEIGHT - BOTTOM) / 2.0,
        (TOP + HEIGHT - BOTTOM) / 2.0
    );
    for (bound, colour, name) in [
        (upper, "#1a7f37", "H1 accepted"),
        (lower, "#cf222e", "H0 accepted"),
    ] {
        let at = y.at(bound);
        let _ = writeln!(
            svg,
            "<line class=\"bound\" x1=\"{LEFT}\" y1=\"{at:.1}\" x2=\"{:.1}\" y2=\"{at:.1}\" \
             stroke=\"{colour}\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{name} ({bound:.2})</text>",
            WIDTH - RIGHT,
            WIDTH - RIGHT + 8.0,
            at + 4.0
        );
    }
    let step = games.div_ceil(MAX_POINTS).max(1);
    let points: Vec<String> = trace
        .llr
        .iter()
        .enumerate()
        .filter(|&(k, _)| k % step == 0 || k == games)
        .map(|(k, &v)| format!("{:.1},{:.1}", x.at(k as f64), y.at(v)))
        .collect();
    let _ = writeln!(
        svg,
        "<polyline id=\"llr\" points=\"{}\" fill=\"none\" stroke=\"#0969da\" \
         stroke-width=\"2\"/>",
        points.join(" ")
    );
    svg.push_str("</svg>\n");
    svg
}

/// `path` absolute, with `.` and `..` resolved by name (as a browser resolves a URL): its
/// root (`/`, or a drive and its root on Windows) and the names below it.
fn normalized(path: &Path) -> (OsString, Vec<OsString>) {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut root = OsString::new();
    let mut names: Vec<OsString> = Vec::new();
    for part in absolute.components() {
        match part {
            Component::Prefix(_) | Component::RootDir => root.push(part.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                names.pop();
            }
            Component::Normal(name) => names.push(name.to_os_string()),
        }
    }
    (root, names)
}

/// The link from a page in `dir` to `target`: relative, so the folder can move, unless
/// they are on different drives (Windows), where only a `file:` URL reaches it.
fn href(target: &Path, dir: &Path) -> String {
    let ((to_root, to), (from_root, from)) = (normalized(target), normalized(dir));
    if to_root != from_root {
        let root = to_root.to_string_lossy().replace('\\', "/");
        let names: Vec<String> = to.iter().map(|n| encode(n)).collect();
        return format!("file:///{}/{}", root.trim_matches('/'), names.join("/"));
    }
    let common = to.iter().zip(&from).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_owned(); from.len() - common];
    parts.extend(to[common..].iter().map(|n| encode(n)));
    if parts.is_empty() {
        "./".to_owned()
    } else {
        parts.join("/")
    }
}

/// A path component as a URL path segment: every byte but the unreserved ones
/// percent-encoded, so that a space, `#`, `?` or `%` in a file name stays part of it.
fn encode(part: &OsStr) -> String {
    let mut out = String::new();
    for &byte in part.as_encoded_bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::engine::{Fault, FaultKind};
    use crate::matches::rating::Anchor;
    use crate::matches::schedule::{Format, build};
    use crate::matches::standings::Outcome;
    use crate::matches::stats::{self, GameResult, Penta, Sprt, Wdl};

    const HOSTILE: &str = "<script>alert(1)</script>";

    #[test]
    fn escaping_turns_every_markup_character_into_an_entity() {
        assert_eq!(escape(HOSTILE), "&lt;script&gt;alert(1)&lt;/script&gt;");
        assert_eq!(escape(r#"a & b's "c""#), "a &amp; b&#39;s &quot;c&quot;");
        assert_eq!(escape("Hoshi élan ±1"), "Hoshi élan ±1");
    }

    /// A round robin of `names` (two games a pairing, colours swapped): the first engine
    /// wins its games, the others draw.
    fn standings(names: &[&str]) -> Standings {
        let names: Vec<String> = names.iter().map(|&n| n.to_owned()).collect();
        let outcomes: Vec<Outcome> = build(names.len(), Format::RoundRobin, 2, 1, true, 0)
            .into_iter()
            .map(|id| Outcome {
                id,
                result: if id.pairing[0] == 0 {
                    GameResult::Win
                } else {
                    GameResult::Draw
                },
            })
            .collect();
        Standings::new(&names, &outcomes, Anchor::Engine(1), None)
    }

    fn game(winner: Option<Color>, ending: Termination) -> PlayedGame {
        PlayedGame {
            moves: Vec::new(),
            opening: 0,
            winner,
            ending,
            sightings: Vec::new(),
        }
    }

    fn report<'a>(
        title: &str,
        engines: Vec<EngineRow<'a>>,
        results: Results<'a>,
        records: &'a [Record],
        games: &'a [GameRow],
    ) -> Report<'a> {
        Report {
            title: title.to_owned(),
            facts: vec!["6 of 6 games played".to_owned()],
            finished: true,
            engines,
            results,
            incidents: vec![format!("Faults of {HOSTILE}: none")],
            records,
            games,
        }
    }

    /// The texts between the tags of `html`, which starts inside a tag; entities are left
    /// as they are.
    fn texts(html: &str) -> Vec<&str> {
        html.split('<')
            .filter_map(|piece| piece.split_once('>').map(|(_, text)| text.trim()))
            .filter(|text| !text.is_empty())
            .collect()
    }

    /// The body rows of the table `id`, each as its cells' texts.
    fn table<'h>(html: &'h str, id: &str) -> Vec<Vec<&'h str>> {
        let start = html
            .find(&format!("<table id=\"{id}\">"))
            .unwrap_or_else(|| panic!("no table {id}"));
        let body = &html[start..];
        let body = &body[body.find("<tbody>").unwrap()..body.find("</table>").unwrap()];
        // Each piece starts inside its `<tr` tag, which `texts` skips up to its `>`.
        body.split("<tr").skip(1).map(texts).collect()
    }

    /// A row per name, no command line, `about` as every engine's ABOUT.
    fn rows<'a>(names: &'a [String], about: Option<&'a str>) -> Vec<EngineRow<'a>> {
        names
            .iter()
            .map(|name| EngineRow {
                name,
                argv: &[],
                about,
            })
            .collect()
    }

    #[test]
    fn engine_and_user_texts_are_shown_as_text_and_can_run_nothing() {
        let s = standings(&[HOSTILE, "b", "c"]);
        let about = "name=\"\"><img src=x onerror=alert(2)>\"";
        let engines = rows(&s.names, Some(about));
        let records = [
            Record {
                kind: RecordKind::Pgn,
                path: PathBuf::from("javascript:alert(4)"),
            },
            Record {
                kind: RecordKind::Psq,
                path: PathBuf::from("psq \"dir\""),
            },
        ];
        let fault = Fault::new(FaultKind::Malformed, "</title><script>alert(3)</script>");
        let games = [GameRow::played(
            1,
            [HOSTILE, "b"],
            &game(Some(Color::White), Termination::Fault(fault)),
            &records,
        )];
        let title = format!("Tournament of {HOSTILE}");
        let html = render(
            &report(&title, engines, Results::Standings(&s), &records, &games),
            Path::new("."),
        );
        let lower = html.to_lowercase();
        for markup in ["<script", "<img", "onerror=alert(2)>", "</title><"] {
            assert!(!lower.contains(markup), "{markup} in {html}");
        }
        let escaped = escape(HOSTILE);
        assert!(html.contains(&format!("<title>Tournament of {escaped}</title>\n")));
        assert_eq!(html.matches("<title>").count(), 1);
        assert_eq!(
            html.matches(&format!("content=\"{CSP}\"")).count(),
            1,
            "{html}"
        );
        assert_eq!(table(&html, "crosstable")[0][1], escaped);
        assert_eq!(table(&html, "engines")[0][3], escape(about));
        let row = &table(&html, "games")[0];
        assert_eq!(row[..4], ["1", escaped.as_str(), "b", "b"]);
        assert_eq!(
            row[4],
            "rules infraction: malformed line: &lt;/title&gt;&lt;script&gt;alert(3)&lt;/script&gt;"
        );
        // Every link stays on the page's folder: no scheme, however the file is named.
        for link in html.split("href=\"").skip(1) {
            let target = &link[..link.find('"').unwrap()];
            assert!(!target.contains(':'), "{target}");
        }
        assert!(
            html.contains("href=\"javascript%3Aalert%284%29\""),
            "{html}"
        );
        assert!(
            html.contains("href=\"psq%20%22dir%22/game-0001.psq\""),
            "{html}"
        );
    }

    #[test]
    fn the_tables_show_the_numbers_the_text_summary_prints() {
        let s = standings(&["a", "b", "c", "d"]);
        let engines = rows(&s.names, None);
        let html = render(
            &report("t", engines, Results::Standings(&s), &[], &[]),
            Path::new("."),
        );
        let text = s.to_string();
        let rows_after = |heading: &str| -> Vec<Vec<&str>> {
            text.lines()
                .skip_while(|l| !l.starts_with(heading))
                .skip(2)
                .take(4)
                .map(|l| l.split_whitespace().collect())
                .collect()
        };
        assert_eq!(table(&html, "crosstable"), rows_after("Crosstable"));
        assert_eq!(table(&html, "ratings"), rows_after("Ratings"));
        // A dot for each finite rating; the engine that won every game points off the
        // chart instead.
        let chart = &html[html.find("id=\"ratings-chart\"").unwrap()..];
        let chart = &chart[..chart.find("</svg>").unwrap()];
        assert_eq!(s.rating_text(0).0, "+inf");
        assert_eq!(chart.matches("<circle").count(), 3);
        assert_eq!(chart.matches("<polygon").count(), 1);
    }

    #[test]
    fn a_match_shows_its_score_its_elo_and_the_path_of_its_sprt() {
        let sprt = Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap();
        let mut trace = SprtTrace::new(sprt);
        let mut total = Wdl::default();
        for _ in 0..12 {
            total.add(GameResult::Win);
            trace.push(total, None);
        }
        let score = MatchScore {
            total,
            by_colour: [[total, Wdl::default()], [Wdl::default(), total.flipped()]],
            elo: stats::elo(total),
            los: stats::los(total),
            penta: Some(Penta([0, 0, 0, 0, 6])),
        };
        let names = ["strong".to_owned(), "weak".to_owned()];
        let engines = rows(&names, None);
        let html = render(
            &report(
                "Match: strong vs weak",
                engines,
                Results::Match {
                    score: &score,
                    sprt: Some(&trace),
                },
                &[],
                &[],
            ),
            Path::new("."),
        );
        assert!(html.contains(&escape(&score.score_line(["strong", "weak"]))));
        assert!(html.contains(&escape(&score.elo_line())));
        assert_eq!(
            table(&html, "pentanomial"),
            [["0", "0", "0", "0", "6", "6"]]
        );
        let points = html
            .split("<polyline id=\"llr\" points=\"")
            .nth(1)
            .and_then(|p| p.split('"').next())
            .unwrap();
        assert_eq!(points.split(' ').count(), 13, "{points}");
        assert_eq!(html.matches("class=\"bound\"").count(), 2);
        assert!(html.contains(&format!(
            "<p id=\"sprt-verdict\">{}</p>",
            escape(&trace.report())
        )));
        assert!(trace.report().contains("H1 accepted"));
    }

    #[test]
    fn a_long_sprt_is_drawn_with_a_bounded_number_of_points_ending_on_the_last_game() {
        let mut trace = SprtTrace::new(Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap());
        trace.llr.extend((1..=5001).map(|k| f64::from(k % 7) / 7.0));
        let svg = llr_chart(&trace);
        let points: Vec<&str> = svg
            .split("points=\"")
            .nth(1)
            .and_then(|p| p.split('"').next())
            .unwrap()
            .split(' ')
            .collect();
        assert!(points.len() <= MAX_POINTS + 1, "{}", points.len());
        assert!(
            points
                .last()
                .unwrap()
                .starts_with(&format!("{:.1},", WIDTH - 150.0))
        );
    }

    #[test]
    fn scales_map_their_ends_and_tick_round_values() {
        let s = Scale {
            lo: -3.2,
            hi: 3.2,
            from: 300.0,
            to: 10.0,
        };
        assert_eq!(s.at(-3.2), 300.0);
        assert_eq!(s.at(f64::INFINITY), 10.0);
        assert_eq!(s.ticks(6.0), [-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0]);
        let wide = Scale::over([-420.0, 95.0].into_iter(), 0.0, 1.0);
        assert!(wide.lo < -420.0 && wide.hi > 95.0);
        assert_eq!(
            wide.ticks(5.0),
            [-400.0, -300.0, -200.0, -100.0, 0.0, 100.0]
        );
    }

    #[test]
    fn links_are_relative_to_the_page_and_encoded() {
        let link = |target: &str, dir: &str| href(Path::new(target), Path::new(dir));
        assert_eq!(link("/r/t.pgn", "/r/out"), "../t.pgn");
        assert_eq!(link("out/psq/game-0001.psq", "out"), "psq/game-0001.psq");
        assert_eq!(link("x/../y.pgn", "z/./"), "../y.pgn");
        assert_eq!(link("a b#c?%.pgn", "."), "a%20b%23c%3F%25.pgn");
        assert_eq!(link("out", "out"), "./");
    }

    #[test]
    fn the_page_is_replaced_whole_and_a_page_that_cannot_be_written_is_an_error() {
        let dir = std::env::temp_dir().join(format!("hoshi-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let s = standings(&["a", "b"]);
        let page = report("first", Vec::new(), Results::Standings(&s), &[], &[]);
        let path = dir.join("r.html");
        let file = ReportFile::new(&path, &[]).unwrap();
        file.write(&page).unwrap();
        file.write(&Report {
            title: "second".to_owned(),
            ..page.clone()
        })
        .unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(
            written.starts_with("<!DOCTYPE html>") && written.contains("<title>second</title>")
        );
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 1, "only the page is left: {left:?}");

        let missing = ReportFile::new(&dir.join("no/such/folder/r.html"), &[]).unwrap();
        let err = missing.write(&page).unwrap_err();
        assert!(
            err.contains("no/such/folder/r.html") && err.contains("folder"),
            "{err}"
        );
        let pgn = Record {
            kind: RecordKind::Pgn,
            path: dir.join("games.pgn"),
        };
        let err = ReportFile::new(&dir.join("./games.pgn"), &[pgn]).unwrap_err();
        assert!(err.contains("PGN record"), "{err}");
        assert!(ReportFile::new(Path::new(".."), &[]).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
