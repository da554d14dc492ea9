//! The evaluation's tables as data, and the weights file that carries them.
//!
//! A [`Model`] is exactly what [`super::Evaluator`] looks up: per rule, per colour, a value
//! pair per pcode (`[as the side to move, as the side that just moved]`, in
//! 1/[`VALUE_SCALE`] evaluation units), a threat table over [`super::threat_mask`] (whole
//! units) and the move prior's pair per pcode (`[as the mover's, as the opponent's]`,
//! [`super::Policy`]). A rule's section holds one set of tables shared by both colours, or
//! two (black's, then white's: renju's colours play different games). A rule without a
//! section uses freestyle's, which every file must have.
//!
//! The file, all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `HOSHIEVL` |
//! | 4 | format version, 2 (1 is read too: its sections have no move prior, and get the hand-set one) |
//! | 4 | pcode vocabulary: CRC-32 of every pcode's four patterns as bytes, in pcode order |
//! | 4 | pcode count (1001) |
//! | 4 | threat table length (2048) |
//! | 4 | value scale (8) |
//! | 4 | section count |
//! | per section | rule code (`INFO rule`) u8, table count u8 (1 or 2), two zero bytes, then per table the pcode pairs (`2 * 1001` i32, own then opposing per pcode), the threat table (2048 i32) and the move prior's pairs (`2 * 1001` i32, as the mover's then as the opponent's per pcode) |
//! | 4 | CRC-32 of everything before |
//!
//! The vocabulary check refuses weights made for other pattern codes: a file stays valid
//! exactly as long as the pcodes it numbers mean the same shapes.

use std::fmt;
use std::path::Path;

use crate::board::Color;
use crate::pattern::{PCODE_COUNT, Pcode, Pcodes};
use crate::rules::Rule;

use super::policy::{Policy, PolicyTable};
use super::{EVAL_LIMIT, THREAT_MASKS};

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"HOSHIEVL";
/// The format this code writes (and, with [`VERSION_NO_PRIOR`], reads).
pub const VERSION: u32 = 2;
/// The first format, without the move prior.
pub const VERSION_NO_PRIOR: u32 = 1;
/// Pcode values are kept in units of 1/`VALUE_SCALE` of the evaluation, so that a learned
/// value between two whole units is not lost to rounding on the dozens of cells sharing it.
pub const VALUE_SCALE: i32 = 8;
/// `log2(VALUE_SCALE)`.
pub const VALUE_SHIFT: u32 = VALUE_SCALE.trailing_zeros();
/// The largest pcode value a file may hold: far from overflowing a board's sum.
pub const MAX_PCODE_VALUE: i32 = 1 << 20;

/// One rule's tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleTables {
    /// One table, or black's and white's: per pcode `[own, opposing]`.
    pub pcode: Vec<Vec<[i32; 2]>>,
    /// As many threat tables, over [`super::threat_mask`].
    pub threat: Vec<Vec<i32>>,
    /// As many move-prior tables: per pcode `[as the mover's, as the opponent's]`.
    pub policy: Vec<PolicyTable>,
}

impl RuleTables {
    /// Zero tables, one shared by both colours or (`per_colour`) one each.
    #[must_use]
    pub fn zero(per_colour: bool) -> RuleTables {
        let n = if per_colour { 2 } else { 1 };
        RuleTables {
            pcode: vec![vec![[0; 2]; PCODE_COUNT]; n],
            threat: vec![vec![0; THREAT_MASKS]; n],
            policy: vec![vec![[0; 2]; PCODE_COUNT]; n],
        }
    }

    /// Which table `color` uses.
    #[must_use]
    pub fn table_of(&self, color: Color) -> usize {
        if self.pcode.len() == 1 {
            0
        } else {
            color as usize
        }
    }

    fn check(&self) -> Result<(), ModelError> {
        let n = self.pcode.len();
        if !(1..=2).contains(&n) || self.threat.len() != n || self.policy.len() != n {
            return Err(ModelError::Layout(format!(
                "{n} pcode tables, {} threat tables and {} move-prior tables (1 or 2 of each)",
                self.threat.len(),
                self.policy.len()
            )));
        }
        if self.pcode.iter().any(|t| t.len() != PCODE_COUNT)
            || self.threat.iter().any(|t| t.len() != THREAT_MASKS)
            || self.policy.iter().any(|t| t.len() != PCODE_COUNT)
        {
            return Err(ModelError::Layout("a table of the wrong length".into()));
        }
        if let Some(v) = self
            .pcode
            .iter()
            .chain(&self.policy)
            .flatten()
            .flatten()
            .find(|v| v.abs() > MAX_PCODE_VALUE)
        {
            return Err(ModelError::Value(format!(
                "pcode value {v} beyond +-{MAX_PCODE_VALUE}"
            )));
        }
        if let Some(v) = self.threat.iter().flatten().find(|v| v.abs() > EVAL_LIMIT) {
            return Err(ModelError::Value(format!(
                "threat value {v} beyond +-{EVAL_LIMIT}"
            )));
        }
        Ok(())
    }
}

/// Every rule's tables: freestyle's always, others where they differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// Sorted by [`Rule::index`], each rule at most once, freestyle first.
    sections: Vec<(Rule, RuleTables)>,
}

/// Why a weights file was refused.
#[derive(Debug)]
pub enum ModelError {
    Io(String, std::io::Error),
    Truncated,
    BadMagic,
    Version(u32),
    /// The file numbers other pattern codes (or another table layout).
    Vocabulary(String),
    Checksum,
    Layout(String),
    Value(String),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Io(path, e) => write!(f, "cannot read {path}: {e}"),
            ModelError::Truncated => f.write_str("the weights file is cut short"),
            ModelError::BadMagic => f.write_str("not a Hoshi weights file (bad magic)"),
            ModelError::Version(v) => write!(
                f,
                "weights format version {v} is not supported (this build reads \
                 {VERSION_NO_PRIOR} and {VERSION})"
            ),
            ModelError::Vocabulary(what) => write!(
                f,
                "the weights were made for other pattern codes ({what}); train them again"
            ),
            ModelError::Checksum => f.write_str("the weights file is damaged (checksum mismatch)"),
            ModelError::Layout(what) => write!(f, "bad weights layout: {what}"),
            ModelError::Value(what) => write!(f, "bad weight: {what}"),
        }
    }
}

impl std::error::Error for ModelError {}

/// The CRC-32 of every pcode's patterns: what the file's numbering means. Files of other
/// tools that carry pcodes or patterns (the network trainer's position files) carry it too.
#[must_use]
pub fn vocabulary() -> u32 {
    let pcodes = Pcodes::get();
    let bytes: Vec<u8> = (0..PCODE_COUNT)
        .flat_map(|p| pcodes.patterns(p as Pcode).map(|pat| pat as u8))
        .collect();
    crc32fast::hash(&bytes)
}

/// A little-endian reader over a byte slice that reports running short.
struct Cursor<'a> {
    bytes: &'a [u8],
}

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], ModelError> {
        if self.bytes.len() < n {
            return Err(ModelError::Truncated);
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u8(&mut self) -> Result<u8, ModelError> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, ModelError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i32(&mut self) -> Result<i32, ModelError> {
        self.u32().map(|v| v as i32)
    }
}

/// A section's tables as the file stores them: per table its pcode pairs, threat table and
/// move-prior pairs.
fn write_tables(t: &RuleTables, out: &mut Vec<u8>) {
    for ((pcode, threat), policy) in t.pcode.iter().zip(&t.threat).zip(&t.policy) {
        for v in pcode
            .iter()
            .flatten()
            .chain(threat)
            .chain(policy.iter().flatten())
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

impl Model {
    /// A model of the given sections; freestyle's is required.
    pub fn new(mut sections: Vec<(Rule, RuleTables)>) -> Result<Model, ModelError> {
        sections.sort_by_key(|(r, _)| r.index());
        if sections.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(ModelError::Layout("a rule has two sections".into()));
        }
        if sections.first().is_none_or(|(r, _)| *r != Rule::Freestyle) {
            return Err(ModelError::Layout("no freestyle section".into()));
        }
        for (_, t) in &sections {
            t.check()?;
        }
        Ok(Model { sections })
    }

    /// The tables `rule` plays with: its own section, or freestyle's.
    #[must_use]
    pub fn tables(&self, rule: Rule) -> &RuleTables {
        self.sections
            .iter()
            .find(|(r, _)| *r == rule)
            .map_or(&self.sections[0].1, |(_, t)| t)
    }

    /// The rules with a section of their own.
    pub fn rules(&self) -> impl Iterator<Item = Rule> + '_ {
        self.sections.iter().map(|(r, _)| *r)
    }

    /// This model with `rule`'s section replaced (or added).
    pub fn with_section(&self, rule: Rule, tables: RuleTables) -> Result<Model, ModelError> {
        let mut sections: Vec<_> = self
            .sections
            .iter()
            .filter(|(r, _)| *r != rule)
            .cloned()
            .collect();
        sections.push((rule, tables));
        Model::new(sections)
    }

    /// The file's bytes: its body, then the body's CRC-32.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.body();
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// The checksum the file carries, the CRC-32 of its body: it names the tables. (Not
    /// the CRC-32 of the whole file: a file ending in its own CRC-32 has the same one,
    /// 0x2144df1c, whatever it holds.)
    #[must_use]
    pub fn checksum(&self) -> u32 {
        crc32fast::hash(&self.body())
    }

    /// Names the tables `rule` plays with, whatever the other rules' sections hold: the
    /// CRC-32 of the file's fixed header fields and that section's tables. A network that
    /// corrects one rule's tables stays valid when another rule's are refitted.
    #[must_use]
    pub fn tables_id(&self, rule: Rule) -> u32 {
        let mut out = Model::header(1);
        write_tables(self.tables(rule), &mut out);
        crc32fast::hash(&out)
    }

    /// The file's first fields, up to the section count.
    fn header(sections: usize) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for v in [
            VERSION,
            vocabulary(),
            PCODE_COUNT as u32,
            THREAT_MASKS as u32,
            VALUE_SCALE as u32,
            sections as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The file's bytes before its checksum.
    fn body(&self) -> Vec<u8> {
        let mut out = Model::header(self.sections.len());
        for (rule, t) in &self.sections {
            out.extend_from_slice(&[rule.code() as u8, t.pcode.len() as u8, 0, 0]);
            write_tables(t, &mut out);
        }
        out
    }

    /// Parses a weights file, refusing anything but a whole, valid one.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(ModelError::BadMagic);
        }
        let mut c = Cursor {
            bytes: &bytes[MAGIC.len()..],
        };
        let version = c.u32()?;
        if version != VERSION && version != VERSION_NO_PRIOR {
            return Err(ModelError::Version(version));
        }
        if bytes.len() < 4 {
            return Err(ModelError::Truncated);
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        let crc = u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]);
        let vocab = c.u32()?;
        let (pcodes, masks, scale) = (c.u32()?, c.u32()?, c.u32()?);
        if crc32fast::hash(body) != crc {
            return Err(ModelError::Checksum);
        }
        if (pcodes, masks, scale) != (PCODE_COUNT as u32, THREAT_MASKS as u32, VALUE_SCALE as u32) {
            return Err(ModelError::Vocabulary(format!(
                "{pcodes} pcodes, {masks} threat masks, scale {scale}; this build has \
                 {PCODE_COUNT}, {THREAT_MASKS}, {VALUE_SCALE}"
            )));
        }
        if vocab != vocabulary() {
            return Err(ModelError::Vocabulary(format!(
                "pcode vocabulary {vocab:08x}, this build's is {:08x}",
                vocabulary()
            )));
        }
        let count = c.u32()?;
        let mut sections = Vec::new();
        for _ in 0..count {
            let code = c.u8()?;
            let tables = c.u8()?;
            let rule = Rule::ALL
                .into_iter()
                .find(|r| r.code() == u32::from(code))
                .ok_or_else(|| ModelError::Layout(format!("no rule has code {code}")))?;
            if c.take(2)? != [0, 0] || !(1..=2).contains(&tables) {
                return Err(ModelError::Layout(format!(
                    "{rule} section header: {tables} tables"
                )));
            }
            let mut t = RuleTables::zero(tables == 2);
            for ((pcode, threat), policy) in
                t.pcode.iter_mut().zip(&mut t.threat).zip(&mut t.policy)
            {
                for v in pcode.iter_mut().flatten().chain(threat.iter_mut()) {
                    *v = c.i32()?;
                }
                if version == VERSION_NO_PRIOR {
                    *policy = Policy::handset_table();
                } else {
                    for v in policy.iter_mut().flatten() {
                        *v = c.i32()?;
                    }
                }
            }
            sections.push((rule, t));
        }
        if c.bytes.len() != 4 {
            return Err(ModelError::Layout(format!(
                "{} bytes after the last section",
                c.bytes.len().saturating_sub(4)
            )));
        }
        Model::new(sections)
    }

    /// Reads a weights file.
    pub fn load(path: &Path) -> Result<Model, ModelError> {
        let bytes =
            std::fs::read(path).map_err(|e| ModelError::Io(path.display().to_string(), e))?;
        Model::from_bytes(&bytes)
    }

    /// Writes the weights file, whole or not at all (a temporary file renamed over it).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Model {
        let mut fs = RuleTables::zero(false);
        fs.pcode[0][5] = [12, -7];
        fs.threat[0][3] = 40;
        let mut renju = RuleTables::zero(true);
        renju.pcode[1][1000] = [-MAX_PCODE_VALUE, MAX_PCODE_VALUE];
        renju.threat[0][2047] = -EVAL_LIMIT;
        Model::new(vec![(Rule::Renju, renju), (Rule::Freestyle, fs)]).unwrap()
    }

    #[test]
    fn the_file_round_trips_and_missing_rules_fall_back_to_freestyle() {
        let m = sample();
        let back = Model::from_bytes(&m.to_bytes()).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.tables(Rule::Caro), back.tables(Rule::Freestyle));
        assert_eq!(back.tables(Rule::Renju).table_of(Color::White), 1);
        assert_eq!(back.tables(Rule::Freestyle).table_of(Color::White), 0);
        assert_eq!(
            back.rules().collect::<Vec<_>>(),
            [Rule::Freestyle, Rule::Renju]
        );
    }

    /// A rule's tables id follows its own tables only: another rule's refit keeps it, a
    /// rule without a section shares freestyle's.
    #[test]
    fn a_rules_tables_id_names_its_tables_alone() {
        let m = sample();
        let mut renju = m.tables(Rule::Renju).clone();
        renju.threat[1][7] = 3;
        let refit = m.with_section(Rule::Renju, renju).unwrap();
        assert_ne!(refit.checksum(), m.checksum());
        assert_ne!(refit.tables_id(Rule::Renju), m.tables_id(Rule::Renju));
        assert_eq!(
            refit.tables_id(Rule::Freestyle),
            m.tables_id(Rule::Freestyle)
        );
        assert_eq!(m.tables_id(Rule::Standard), m.tables_id(Rule::Freestyle));
        assert_ne!(m.tables_id(Rule::Renju), m.tables_id(Rule::Freestyle));
        let mut fs = m.tables(Rule::Freestyle).clone();
        fs.policy[0][0][1] = 1;
        let refit = m.with_section(Rule::Freestyle, fs).unwrap();
        assert_ne!(
            refit.tables_id(Rule::Freestyle),
            m.tables_id(Rule::Freestyle)
        );
        assert_eq!(refit.tables_id(Rule::Renju), m.tables_id(Rule::Renju));
    }

    /// The first format, without the move prior, is still read: its sections get the
    /// hand-set prior and keep everything else.
    #[test]
    fn a_version_1_file_is_read_with_the_handset_prior() {
        let m = sample();
        let v2 = m.to_bytes();
        // Rebuild the bytes without the prior blocks, as version 1 wrote them.
        let header = MAGIC.len() + 6 * 4;
        let mut v1 = v2[..header].to_vec();
        v1[8..12].copy_from_slice(&VERSION_NO_PRIOR.to_le_bytes());
        let mut at = header;
        let table = 2 * PCODE_COUNT * 4 + THREAT_MASKS * 4;
        let prior = 2 * PCODE_COUNT * 4;
        for (_, t) in &m.sections {
            v1.extend_from_slice(&v2[at..at + 4]);
            at += 4;
            for _ in 0..t.pcode.len() {
                v1.extend_from_slice(&v2[at..at + table]);
                at += table + prior;
            }
        }
        let crc = crc32fast::hash(&v1);
        v1.extend_from_slice(&crc.to_le_bytes());
        let back = Model::from_bytes(&v1).unwrap();
        for rule in [Rule::Freestyle, Rule::Renju] {
            let (got, want) = (back.tables(rule), m.tables(rule));
            assert_eq!((&got.pcode, &got.threat), (&want.pcode, &want.threat));
            assert!(got.policy.iter().all(|t| *t == Policy::handset_table()));
        }
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let good = sample().to_bytes();
        let refuse = |bytes: &[u8]| Model::from_bytes(bytes).unwrap_err();
        assert!(matches!(refuse(b"PK\x03\x04zip"), ModelError::BadMagic));
        assert!(matches!(refuse(&good[..6]), ModelError::BadMagic));
        assert!(matches!(refuse(&good[..10]), ModelError::Truncated));
        assert!(matches!(
            refuse(&good[..good.len() - 9]),
            ModelError::Checksum
        ));
        let mut flipped = good.clone();
        flipped[100] ^= 1;
        assert!(matches!(refuse(&flipped), ModelError::Checksum));
        let mut version = good.clone();
        version[8] = 9;
        assert!(matches!(refuse(&version), ModelError::Version(9)));
        // A file whose checksum is right but whose numbering is not this build's.
        let mut vocab = good[..good.len() - 4].to_vec();
        vocab[12] ^= 0xff;
        let crc = crc32fast::hash(&vocab);
        vocab.extend_from_slice(&crc.to_le_bytes());
        let e = refuse(&vocab);
        assert!(matches!(e, ModelError::Vocabulary(_)), "{e}");
        assert!(e.to_string().contains("train them again"));
    }

    #[test]
    fn models_without_freestyle_or_with_wild_values_are_refused() {
        assert!(Model::new(vec![(Rule::Renju, RuleTables::zero(true))]).is_err());
        let mut t = RuleTables::zero(false);
        t.threat[0][0] = EVAL_LIMIT + 1;
        assert!(matches!(
            Model::new(vec![(Rule::Freestyle, t)]),
            Err(ModelError::Value(_))
        ));
        let mut t = RuleTables::zero(false);
        t.pcode.push(vec![[0; 2]; 3]);
        t.threat.push(vec![0; THREAT_MASKS]);
        t.policy.push(vec![[0; 2]; PCODE_COUNT]);
        assert!(matches!(
            Model::new(vec![(Rule::Freestyle, t)]),
            Err(ModelError::Layout(_))
        ));
    }
}
