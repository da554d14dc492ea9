//! Static evaluation: a pure function of the pattern board's sums and one [`Model`].
//!
//! Every empty cell has, per colour, a pcode (the multiset of its four line patterns). The
//! evaluation gives each pcode a value for the side to move and one for the side that just
//! moved (it moves first, so the same shape is worth more to it); the pattern board keeps the
//! sums of those values over the empty cells as stones come and go, so evaluating costs two
//! subtractions and one lookup in a threat table (who moves first in a race of urgent
//! shapes). Forcing shapes (fives, open fours) are the search's business and decided there;
//! here they only add weight for the rare quiet position where they survive.
//!
//! The tables are learned from self-play (`pbrain-hoshi datagen`, `pbrain-hoshi train`;
//! docs/eval.md) and built into the binary; [`Weights`] keeps the 44 hand-set numbers they
//! started from, the prior of the training and the baseline of every match.
//!
//! [`network`] reads the network `nn/train.py` exports and computes its integer outputs
//! exactly as the trainer's reference does; [`incremental`] keeps its value up to date in
//! the search. A network file given where a weights file is expected (`--weights`, `INFO
//! weights`) adds it to the built-in tables for its rule: its value, in evaluation units,
//! corrects theirs (a residual network) or replaces it (docs/network.md).

pub mod features;
pub mod incremental;
pub mod model;
pub mod network;
pub mod policy;
mod simd;

use std::fmt;
use std::ops::RangeInclusive;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::board::Color;
use crate::pattern::{CellValues, Pattern, PatternBoard, Pcode, Pcodes, Threat};
use crate::rules::Rule;
use incremental::{NetworkState, StateError};
pub use model::{Model, ModelError, RuleTables, VALUE_SCALE, VALUE_SHIFT};
use network::{Network, NetworkError};
pub use policy::Policy;

/// The largest evaluation magnitude: far below the mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// A static evaluation ([`Evaluator::evaluate_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    pub value: i32,
    /// False where the tables' value stood in for a residual network's.
    pub exact: bool,
}

impl Evaluation {
    /// An evaluation that is what it says (the network's, where one evaluates the rule).
    #[must_use]
    pub fn exact(value: i32) -> Evaluation {
        Evaluation { value, exact: true }
    }
}

/// Texel's logistic scale K of the evaluation under `rule`: the side to move wins with
/// probability `sigmoid(eval / K)`. The weights file carries no K; these are the values
/// `train` fitted on the data of the built-in weights (docs/eval.md, "Units"), whose units
/// learned weights keep. Standard and caro evaluate with freestyle's tables.
#[must_use]
pub fn logistic_scale(rule: Rule) -> f64 {
    match rule {
        Rule::Renju => 715.2,
        _ => 517.3,
    }
}

/// Every tunable of the hand-set evaluation: a value per line pattern and per combined
/// threat, for each role. A cell's value is the sum over its four lines plus its threat's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per line pattern of the side to move, indexed by [`Pattern`].
    pub own_pattern: [i32; Pattern::COUNT],
    /// Per line pattern of the side that just moved.
    pub opp_pattern: [i32; Pattern::COUNT],
    /// Per combined threat cell of the side to move, indexed by [`Threat`].
    pub own_threat: [i32; Threat::COUNT],
    /// Per combined threat cell of the side that just moved.
    pub opp_threat: [i32; Threat::COUNT],
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            // Dead, Overline, B1, F1, B2, F2, B3, F3, B4, F4, Five
            own_pattern: [0, 0, 1, 2, 3, 8, 10, 24, 28, 60, 200],
            opp_pattern: [0, 0, 1, 2, 3, 7, 8, 18, 20, 40, 150],
            // None, F2, B3, F2x2, B3+, F3, F3+, F3x2, B4, B4+, B4F3, F4, Five
            own_threat: [0, 2, 3, 10, 12, 25, 40, 400, 20, 40, 800, 1500, 3000],
            opp_threat: [0, 1, 2, 6, 8, 15, 25, 120, 10, 20, 200, 400, 1000],
        }
    }
}

impl Weights {
    /// The value of one cell's pcode, `[as the side to move, as the side that just moved]`.
    fn cell_value(&self, pcode: Pcode) -> [i32; 2] {
        let pcodes = Pcodes::get();
        let threat = pcodes.threat(pcode) as usize;
        let lines = |w: &[i32; Pattern::COUNT]| -> i32 {
            pcodes.patterns(pcode).iter().map(|&p| w[p as usize]).sum()
        };
        [
            lines(&self.own_pattern) + self.own_threat[threat],
            lines(&self.opp_pattern) + self.opp_threat[threat],
        ]
    }
}

/// Bits of [`threat_mask`].
pub const THREAT_BITS: u32 = 11;
/// Entries of a threat table.
pub const THREAT_MASKS: usize = 1 << THREAT_BITS;

/// Which urgent shapes exist on the board, as bits, from the side to move's view: the
/// opponent's five point; each side's open-four point (an open three); each side's four with
/// a follow-up, plain four, and three-with-follow-up and plain open three points (the
/// opponent's only when he has no five point and we have no open four, where they matter).
/// Who moves first decides such races, which the per-cell sums cannot see; a table over
/// these bits adds it.
#[must_use]
pub fn threat_mask(pb: &PatternBoard, side: Color) -> usize {
    let t = &pb.counts().threats;
    let (me, opp) = (&t[side as usize], &t[side.opponent() as usize]);
    let has = |n: &[u16; Threat::COUNT], ts: &[Threat]| ts.iter().any(|&x| n[x as usize] > 0);
    let bits = [
        has(opp, &[Threat::Five]),
        has(me, &[Threat::Flex4]),
        has(opp, &[Threat::Flex4]),
        has(me, &[Threat::Block4Plus, Threat::Block4Flex3]),
        has(me, &[Threat::Block4]),
        has(me, &[Threat::Flex3Plus, Threat::Flex3x2]),
        has(me, &[Threat::Flex3]),
        has(opp, &[Threat::Block4Plus, Threat::Block4Flex3]),
        has(opp, &[Threat::Block4]),
        has(opp, &[Threat::Flex3Plus, Threat::Flex3x2]),
        has(opp, &[Threat::Flex3]),
    ];
    bits.iter()
        .enumerate()
        .fold(0, |m, (i, &b)| m | (usize::from(b) << i))
}

/// One rule's evaluation: the per-pcode values the board sums (one table per colour), a
/// threat table per colour, and the move prior.
#[derive(Clone, Debug)]
struct RuleEval {
    /// [`Model::tables_id`]: what a residual network for this rule names as its baseline.
    tables_id: u32,
    values: Arc<CellValues>,
    threat: [Vec<i32>; 2],
    policy: Policy,
}

/// An evaluation ready to use, for every rule. Cloning is cheap: the tables are shared.
#[derive(Clone, Debug)]
pub struct Evaluator {
    rules: Arc<[RuleEval; Rule::ALL.len()]>,
    /// The checksum of the model's weights file ([`Model::checksum`]): which evaluation
    /// this is.
    id: u32,
    /// Networks on top of the tables, at most one for each rule and board side, in the
    /// order of [`network_key`]: a search takes the one made for its rule and board.
    networks: Arc<[Arc<Network>]>,
}

/// Where a network plays: its rule and the side of its square board. The order of the keys
/// orders an evaluation's networks, so that its id does not depend on how they were added.
fn network_key(net: &Network) -> (usize, u8) {
    (net.rule().index(), net.side())
}

/// Why an evaluation file could not be used.
#[derive(Debug)]
pub enum LoadError {
    Io(String, std::io::Error),
    /// A weights file (tables) refused.
    Model(ModelError),
    /// A network file refused.
    Network(NetworkError),
    /// A network that cannot be kept incrementally.
    State(StateError),
    /// A residual network made for other tables: its rule, its baseline and the id of
    /// this build's tables for that rule.
    Baseline(Rule, u32, u32),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(path, e) => write!(f, "cannot read {path}: {e}"),
            LoadError::Model(e) => e.fmt(f),
            LoadError::Network(e) => e.fmt(f),
            LoadError::State(e) => e.fmt(f),
            LoadError::Baseline(rule, net, tables) => write!(
                f,
                "the network corrects the {rule} tables {net:08x}, and this build's are \
                 {tables:08x}; export its positions with this build's tables and train it again"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// The weights built into the binary, as `pbrain-hoshi train` wrote them.
const DEFAULT_WEIGHTS: &[u8] = include_bytes!("default.weights");

/// The networks built into the binary, as `nn/train.py` wrote them, each residual on the
/// built-in tables of its rule (docs/network.md, "The built-in network" and "Renju's
/// network"): freestyle's and renju's, both on 15x15. Standard and caro, and boards of
/// another size than a network's own ([`Network::side`]), play with their tables.
const BUILTIN_NETWORKS: [&[u8]; 2] = [include_bytes!("freestyle.hnn"), include_bytes!("renju.hnn")];

impl Default for Evaluator {
    /// The built-in tables alone: the evaluation of the tests, of the data tools' baseline,
    /// of the strength dial below full strength, and of a search not told otherwise.
    fn default() -> Self {
        static DEFAULT: OnceLock<Evaluator> = OnceLock::new();
        DEFAULT
            .get_or_init(|| Evaluator::from_model(&builtin_model()))
            .clone()
    }
}

/// The model of the built-in weights.
#[must_use]
pub fn builtin_model() -> Model {
    // Checked by a test: the embedded file is valid for this build.
    Model::from_bytes(DEFAULT_WEIGHTS).expect("the built-in weights are valid")
}

impl Evaluator {
    /// The built-in evaluation, what master plays with unless told otherwise: the built-in
    /// tables, with the built-in networks where they play.
    #[must_use]
    pub fn builtin() -> Evaluator {
        static BUILTIN: OnceLock<Evaluator> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                BUILTIN_NETWORKS
                    .iter()
                    .fold(Evaluator::default(), |e, bytes| {
                        // Checked by a test: the embedded networks are valid for this build.
                        let net = Network::from_bytes(bytes).expect("a built-in network is valid");
                        e.with_network(net)
                            .expect("a built-in network corrects the built-in tables")
                    })
            })
            .clone()
    }

    /// This evaluation's tables alone, without its network.
    #[must_use]
    pub fn tables(&self) -> Evaluator {
        Evaluator {
            networks: Arc::new([]),
            ..self.clone()
        }
    }

    /// The evaluation of hand-set `weights`: the same for every rule and both colours, with
    /// no threat table.
    #[must_use]
    pub fn from_weights(weights: &Weights) -> Evaluator {
        Evaluator::from_model(&handset_model(weights))
    }

    /// The hand-set evaluation, [`Weights::default`].
    #[must_use]
    pub fn handset() -> Evaluator {
        Evaluator::from_weights(&Weights::default())
    }

    /// The evaluation `model` describes.
    #[must_use]
    pub fn from_model(model: &Model) -> Evaluator {
        let rules = Rule::ALL.map(|rule| {
            let t = model.tables(rule);
            let of = |c: Color| t.table_of(c);
            RuleEval {
                tables_id: model.tables_id(rule),
                values: Arc::new(CellValues {
                    by_pcode: Color::BOTH.map(|c| t.pcode[of(c)].clone()),
                }),
                threat: Color::BOTH.map(|c| t.threat[of(c)].clone()),
                policy: Policy::new(Color::BOTH.map(|c| t.policy[of(c)].clone())),
            }
        });
        Evaluator {
            rules: Arc::new(rules),
            id: model.checksum(),
            networks: Arc::new([]),
        }
    }

    /// This evaluation with `net` added for its rule and board, in place of a network it
    /// had there. A residual network must correct these very tables of its rule; a network
    /// with the convolution is refused (it cannot be updated incrementally).
    pub fn with_network(mut self, net: Network) -> Result<Evaluator, LoadError> {
        NetworkState::supports(&net).map_err(LoadError::State)?;
        let tables = self.tables_id(net.rule());
        if net.residual() && net.baseline() != tables {
            return Err(LoadError::Baseline(net.rule(), net.baseline(), tables));
        }
        let key = network_key(&net);
        let mut networks: Vec<_> = self
            .networks
            .iter()
            .filter(|n| network_key(n) != key)
            .cloned()
            .collect();
        let at = networks.partition_point(|n| network_key(n) < key);
        networks.insert(at, Arc::new(net));
        self.networks = networks.into();
        Ok(self)
    }

    /// A new incremental network state for a search on `pb`, when a network evaluates its
    /// rule on a board of its size ([`Network::side`]).
    #[must_use]
    pub fn network_state(&self, pb: &PatternBoard) -> Option<NetworkState> {
        let b = pb.board();
        if b.width() != b.height() {
            return None;
        }
        let key = (pb.rule().index(), b.width());
        let net = self.networks.iter().find(|n| network_key(n) == key)?;
        // `with_network` admitted only networks the state supports.
        Some(NetworkState::new(net.clone(), pb).expect("an admitted network is incremental"))
    }

    /// The evaluation of `pb` for `side`, with the network's value when `net` (made by
    /// [`Evaluator::network_state`] on this board) is given, unless the network is
    /// residual and the tables' value lies outside `needed`: the caller's decisions do not
    /// depend on the value there, and the tables' stands in for it (Rapfi's hybrid
    /// evaluation; the update of the network's state waits for a position that needs it).
    pub fn evaluate_with(
        &self,
        pb: &PatternBoard,
        side: Color,
        net: Option<&mut NetworkState>,
        needed: RangeInclusive<i32>,
    ) -> Evaluation {
        let tables = self.evaluate(pb, side);
        let Some(state) = net else {
            return Evaluation::exact(tables);
        };
        let residual = state.network().residual();
        if residual && !needed.contains(&tables) {
            return Evaluation {
                value: tables,
                exact: false,
            };
        }
        let value = state.value(pb, side);
        let value = state.network().to_eval(value);
        let e = if residual { tables + value } else { value };
        Evaluation::exact(e.clamp(-EVAL_LIMIT, EVAL_LIMIT))
    }

    /// Names this evaluation: equal ids, equal tables (the checksum its weights file
    /// carries) and equal networks (with networks, the CRC-32 of the files' checksums, the
    /// tables' first).
    #[must_use]
    pub fn id(&self) -> u32 {
        if self.networks.is_empty() {
            return self.id;
        }
        let ids = std::iter::once(self.id).chain(self.networks.iter().map(|n| n.checksum()));
        let bytes: Vec<u8> = ids.flat_map(u32::to_le_bytes).collect();
        crc32fast::hash(&bytes)
    }

    /// The id of the tables `rule` plays with ([`Model::tables_id`]): what a residual
    /// network for `rule` names as its baseline.
    #[must_use]
    pub fn tables_id(&self, rule: Rule) -> u32 {
        self.rule(rule).tables_id
    }

    /// The evaluation of a weights file, or of a network file (its magic tells) on the
    /// built-in tables.
    pub fn load(path: &Path) -> Result<Evaluator, LoadError> {
        let bytes =
            std::fs::read(path).map_err(|e| LoadError::Io(path.display().to_string(), e))?;
        if bytes.starts_with(&network::MAGIC) {
            let net = Network::from_bytes(&bytes).map_err(LoadError::Network)?;
            return Evaluator::default().with_network(net);
        }
        Model::from_bytes(&bytes)
            .map(|m| Evaluator::from_model(&m))
            .map_err(LoadError::Model)
    }

    fn rule(&self, rule: Rule) -> &RuleEval {
        &self.rules[rule.index()]
    }

    /// The values a pattern board under `rule` must sum for [`Evaluator::evaluate`].
    #[must_use]
    pub fn cell_values(&self, rule: Rule) -> Arc<CellValues> {
        self.rule(rule).values.clone()
    }

    /// The move prior under `rule`.
    #[must_use]
    pub fn policy(&self, rule: Rule) -> &Policy {
        &self.rule(rule).policy
    }

    /// The position's value for `side`, the colour to move. `pb` must sum this evaluator's
    /// [`Evaluator::cell_values`] of its rule.
    #[must_use]
    pub fn evaluate(&self, pb: &PatternBoard, side: Color) -> i32 {
        let rule = self.rule(pb.rule());
        debug_assert!(
            Arc::ptr_eq(pb.cell_values(), &rule.values),
            "the pattern board sums another evaluation's values"
        );
        let sums = pb.counts().values;
        let (me, opp) = (side as usize, side.opponent() as usize);
        let threat = rule.threat[me][threat_mask(pb, side)];
        combine(sums[me][0] - sums[opp][1], threat)
    }
}

/// The evaluation from the pcode sum (own values of the side to move less opposing values
/// of the other, in 1/[`VALUE_SCALE`] units) and the threat-table entry.
#[inline]
fn combine(pcode_sum: i32, threat: i32) -> i32 {
    ((pcode_sum >> VALUE_SHIFT) + threat).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// The hand-set `weights` as a model: one freestyle section, which every rule falls back to.
#[must_use]
pub fn handset_model(weights: &Weights) -> Model {
    let mut t = RuleTables::zero(false);
    for (p, v) in t.pcode[0].iter_mut().enumerate() {
        *v = weights.cell_value(p as Pcode).map(|x| x * VALUE_SCALE);
    }
    t.policy[0] = Policy::handset_table();
    Model::new(vec![(Rule::Freestyle, t)]).expect("hand-set values are in range")
}

/// The engine's exactness fixtures (crates/tools/tests/data/network), for the tests of
/// the network in play.
#[cfg(test)]
pub(crate) mod fixtures {
    use std::path::{Path, PathBuf};

    /// Fixture `name`'s path: `w8` (residual, windows, the cell layer), `n8` (standalone,
    /// windows, no cell layer), `r8` (residual, pcode tables), `c8` (the convolution).
    pub(crate) fn path(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tools/tests/data/network")
            .join(name)
    }

    /// The bytes of fixture `name`, a residual network, made to correct the built-in
    /// tables of its rule: its baseline id rewritten to theirs and its checksum resealed, so
    /// that the tests of a residual network in play hold whichever tables are built in.
    pub(crate) fn on_builtin(name: &str) -> Vec<u8> {
        let b = std::fs::read(path(name)).unwrap();
        let rule = super::Network::from_bytes(&b).unwrap().rule();
        with_baseline(name, super::Evaluator::default().tables_id(rule))
    }

    /// The bytes of fixture `name`, a residual network, made to correct the tables of id
    /// `id`, checksum resealed.
    pub(crate) fn with_baseline(name: &str, id: u32) -> Vec<u8> {
        let mut b = std::fs::read(path(name)).unwrap();
        b[40..44].copy_from_slice(&id.to_le_bytes());
        resealed(b)
    }

    /// Network file bytes `b`, edited, with their checksum made right again.
    pub(crate) fn resealed(mut b: Vec<u8>) -> Vec<u8> {
        let n = b.len() - 4;
        let crc = crc32fast::hash(&b[..n]);
        b[n..].copy_from_slice(&crc.to_le_bytes());
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Pos};

    fn pattern_board(board: &Board, rule: Rule, e: &Evaluator) -> PatternBoard {
        PatternBoard::with_values(board, rule, e.cell_values(rule))
    }

    #[test]
    fn an_open_three_is_worth_more_to_its_owner_and_the_view_flips() {
        let mut b = Board::new(15, 15).unwrap();
        for x in 5..8 {
            b.place(Pos::new(x, 7), Color::Black).unwrap();
        }
        b.place(Pos::new(7, 3), Color::White).unwrap();
        let e = Evaluator::handset();
        let pb = pattern_board(&b, Rule::Freestyle, &e);
        let black = e.evaluate(&pb, Color::Black);
        let white = e.evaluate(&pb, Color::White);
        assert!(black > 0 && white < 0, "{black} {white}");
        // Moving first is worth something: black to move beats white's view of it.
        assert!(black > -white);
    }

    #[test]
    fn the_built_in_weights_are_valid_for_this_build() {
        let model = builtin_model();
        assert!(model.rules().any(|r| r == Rule::Freestyle));
        // The id is the checksum the file ends with, and tells tables apart.
        let bytes = model.to_bytes();
        assert_eq!(
            Evaluator::default().id().to_le_bytes(),
            bytes[bytes.len() - 4..]
        );
        assert_ne!(Evaluator::default().id(), Evaluator::handset().id());
        assert_eq!(
            Evaluator::from_model(&handset_model(&Weights::default())).id(),
            Evaluator::handset().id()
        );
    }

    /// The built-in networks load, correct the built-in tables (their baselines) and play
    /// freestyle and renju on 15x15; the other rules and sizes keep their tables, and so
    /// does the tables' evaluation.
    #[test]
    fn the_built_in_network_is_valid_for_this_build() {
        let e = Evaluator::builtin();
        assert_ne!(e.id(), Evaluator::default().id());
        assert_eq!(e.tables().id(), Evaluator::default().id());
        for (w, h) in [(15, 15), (20, 20), (15, 20), (20, 15)] {
            let b = Board::new(w, h).unwrap();
            for rule in Rule::ALL {
                let pb = pattern_board(&b, rule, &e);
                assert_eq!(
                    e.network_state(&pb).is_some(),
                    matches!(rule, Rule::Freestyle | Rule::Renju) && (w, h) == (15, 15),
                    "{rule} {w}x{h}"
                );
                assert!(e.tables().network_state(&pb).is_none(), "{rule} {w}x{h}");
            }
        }
    }

    #[test]
    fn empty_board_is_level() {
        let e = Evaluator::handset();
        let pb = pattern_board(&Board::new(15, 15).unwrap(), Rule::Standard, &e);
        assert_eq!(e.evaluate(&pb, Color::Black), 0);
    }

    #[test]
    fn a_network_file_adds_its_value_to_the_built_in_tables_for_its_rule() {
        let bytes = fixtures::on_builtin("w8.hnn");
        let path = std::env::temp_dir().join(format!("hoshi-w8-{}.hnn", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let loaded = Evaluator::load(&path);
        let _ = std::fs::remove_file(&path);
        let e = loaded.unwrap();
        let net = Network::from_bytes(&bytes).unwrap();
        assert_eq!(
            e.tables_id(net.rule()),
            Evaluator::default().tables_id(net.rule()),
            "the built-in tables"
        );
        assert_ne!(
            e.id(),
            Evaluator::default().id(),
            "the network is part of the evaluation's name"
        );
        let mut b = Board::new(15, 15).unwrap();
        b.place(Pos::new(7, 7), Color::Black).unwrap();
        b.place(Pos::new(8, 8), Color::White).unwrap();
        b.place(Pos::new(8, 7), Color::Black).unwrap();
        let pb = pattern_board(&b, Rule::Freestyle, &e);
        let mut state = e.network_state(&pb).expect("a freestyle network");
        for side in Color::BOTH {
            let tables = e.evaluate(&pb, side);
            let correction = net.to_eval(net.evaluate(&pb, side).unwrap().value);
            assert_ne!(correction, 0);
            assert_eq!(
                e.evaluate_with(&pb, side, Some(&mut state), tables..=tables),
                Evaluation::exact(tables + correction)
            );
            assert_eq!(
                e.evaluate_with(&pb, side, None, tables..=tables),
                Evaluation::exact(tables)
            );
            // Outside the range its caller needs, the tables' value stands in.
            for needed in [tables + 1..=EVAL_LIMIT, -EVAL_LIMIT..=tables - 1] {
                let lazy = e.evaluate_with(&pb, side, Some(&mut state), needed);
                assert_eq!(
                    lazy,
                    Evaluation {
                        value: tables,
                        exact: false
                    }
                );
            }
        }
        // Not for another rule's board.
        let renju = pattern_board(&b, Rule::Renju, &e);
        assert!(e.network_state(&renju).is_none());
    }

    /// A network plays on the square board its file names, and only there: one trained on
    /// 20x20 positions evaluates 20x20 boards and leaves 15x15 ones to the tables.
    #[test]
    fn a_network_plays_on_its_own_board_size() {
        let mut bytes = fixtures::on_builtin("w8.hnn");
        bytes[39] = 20;
        let e = Evaluator::default()
            .with_network(Network::from_bytes(&fixtures::resealed(bytes)).unwrap())
            .unwrap();
        for (w, h) in [(20, 20), (15, 15), (20, 15), (15, 20), (19, 19)] {
            let pb = pattern_board(&Board::new(w, h).unwrap(), Rule::Freestyle, &e);
            assert_eq!(
                e.network_state(&pb).is_some(),
                (w, h) == (20, 20),
                "{w}x{h}"
            );
        }
    }

    /// Networks for other boards sit side by side, each playing on its own; one for the
    /// same rule and board replaces the one there; the order they came in does not name
    /// the evaluation.
    #[test]
    fn an_evaluation_holds_a_network_for_each_rule_and_board() {
        let on_side = |side: u8| {
            let mut bytes = fixtures::on_builtin("w8.hnn");
            bytes[39] = side;
            Network::from_bytes(&fixtures::resealed(bytes)).unwrap()
        };
        let with = |nets: Vec<Network>| {
            nets.into_iter()
                .fold(Evaluator::default(), |e, n| e.with_network(n).unwrap())
        };
        let both = with(vec![on_side(15), on_side(20)]);
        assert_eq!(both.id(), with(vec![on_side(20), on_side(15)]).id());
        assert_ne!(both.id(), with(vec![on_side(15)]).id());
        for side in [15u8, 20] {
            let board = Board::new(side.into(), side.into()).unwrap();
            let pb = pattern_board(&board, Rule::Freestyle, &both);
            let state = both.network_state(&pb).expect("a network on either board");
            assert_eq!(state.network().side(), side);
        }
        let standalone = Network::load(&fixtures::path("n8.hnn")).unwrap();
        assert_eq!(network_key(&standalone), network_key(&on_side(15)));
        let replaced = both.with_network(standalone).unwrap();
        assert_eq!(replaced.networks.len(), 2);
        let pb = pattern_board(&Board::new(15, 15).unwrap(), Rule::Freestyle, &replaced);
        assert!(!replaced.network_state(&pb).unwrap().network().residual());
    }

    /// A standalone network's value owes nothing to the tables': it is always asked.
    #[test]
    fn a_standalone_network_is_never_lazy() {
        let net = Network::load(&fixtures::path("n8.hnn")).unwrap();
        assert!(!net.residual());
        let e = Evaluator::default().with_network(net.clone()).unwrap();
        let mut b = Board::new(15, 15).unwrap();
        b.place(Pos::new(7, 7), Color::Black).unwrap();
        let pb = pattern_board(&b, Rule::Freestyle, &e);
        let mut state = e.network_state(&pb).expect("a freestyle network");
        let tables = e.evaluate(&pb, Color::White);
        let value = net.to_eval(net.evaluate(&pb, Color::White).unwrap().value);
        assert_ne!(value, tables);
        let far = tables + 1..=tables + 1;
        assert_eq!(
            e.evaluate_with(&pb, Color::White, Some(&mut state), far),
            Evaluation::exact(value)
        );
    }

    /// A residual network names its own rule's tables: refitting another rule's keeps it,
    /// refitting its rule's refuses it.
    #[test]
    fn a_network_survives_another_rules_refit_and_not_its_own() {
        let net = || Network::from_bytes(&fixtures::on_builtin("w8.hnn")).unwrap();
        let rule = net().rule();
        let other = Rule::ALL.into_iter().find(|r| *r != rule).unwrap();
        let builtin = builtin_model();
        let refit = |r: Rule| {
            let mut t = builtin.tables(r).clone();
            t.threat[0][1] += 1;
            Evaluator::from_model(&builtin.with_section(r, t).unwrap())
        };
        assert!(refit(other).with_network(net()).is_ok());
        let refused = refit(rule).with_network(net()).unwrap_err();
        assert!(
            matches!(refused, LoadError::Baseline(r, _, _) if r == rule),
            "{refused}"
        );
    }

    #[test]
    fn networks_the_search_cannot_use_are_refused_with_the_reason() {
        let fixture = fixtures::path;
        // Tables that are not these: the built-in freestyle tables of an earlier version.
        let earlier = Network::from_bytes(&fixtures::with_baseline("r8.hnn", 0x2144_df1c));
        let other = Evaluator::default()
            .with_network(earlier.unwrap())
            .unwrap_err();
        assert!(
            matches!(other, LoadError::Baseline(Rule::Freestyle, 0x2144_df1c, _)),
            "{other}"
        );
        assert!(other.to_string().contains("train it again"));
        let conv = Evaluator::load(&fixture("c8.hnn")).unwrap_err();
        assert!(matches!(conv, LoadError::State(_)), "{conv}");
        let damaged = Evaluator::load(&fixture("fs15.games")).unwrap_err();
        assert!(matches!(damaged, LoadError::Model(_)), "{damaged}");
    }

    /// K converts the network's integer logit to evaluation units, floored.
    #[test]
    fn a_network_value_converts_at_k() {
        let net = Network::load(&fixtures::path("w8.hnn")).unwrap();
        let scale = net.value_scale();
        let k = f64::from(net.k());
        assert_eq!(net.to_eval(0), 0);
        assert_eq!(net.to_eval(scale), k.floor() as i32);
        assert_eq!(net.to_eval(-scale), (-k).floor() as i32);
        assert_eq!(net.to_eval(3 * scale), (3.0 * k).floor() as i32);
    }

    /// The summed pcode values equal the hand-set formula over patterns and threats, cell
    /// by cell, on a busy position.
    #[test]
    fn pcode_sums_equal_the_pattern_and_threat_formula() {
        let b = Board::with_stones(
            15,
            15,
            &[(7, 7), (8, 7), (9, 8), (6, 6), (7, 9)],
            &[(8, 8), (6, 7), (10, 7), (7, 6)],
        )
        .unwrap();
        let w = Weights::default();
        let e = Evaluator::from_weights(&w);
        let pb = pattern_board(&b, Rule::Freestyle, &e);
        let c = pb.counts();
        // Line patterns per colour, one per empty cell and direction.
        let mut pats = [[0u16; Pattern::COUNT]; 2];
        for i in pb.all_cells().filter(|&i| pb.is_empty(i)) {
            for (n, cell) in pats.iter_mut().zip(pb.info(i).pats) {
                for p in cell {
                    n[p as usize] += 1;
                }
            }
        }
        let dot = |n: &[u16], w: &[i32]| -> i32 {
            n.iter().zip(w).map(|(&n, &w)| i32::from(n) * w).sum()
        };
        for side in Color::BOTH {
            let (me, opp) = (side as usize, side.opponent() as usize);
            let formula = dot(&pats[me], &w.own_pattern) - dot(&pats[opp], &w.opp_pattern)
                + dot(&c.threats[me], &w.own_threat)
                - dot(&c.threats[opp], &w.opp_threat);
            assert_eq!(e.evaluate(&pb, side), formula, "{side:?}");
        }
    }

    #[test]
    fn threat_mask_names_each_sides_shapes_from_the_movers_view() {
        // Black: an open three on row 7 (open-four points at both ends), and a stone on
        // (2, 1) that blocks white's three on column 2 from above (four points below).
        let b = Board::with_stones(
            15,
            15,
            &[(5, 7), (6, 7), (7, 7), (2, 1)],
            &[(2, 2), (2, 3), (2, 4), (10, 10)],
        )
        .unwrap();
        let e = Evaluator::handset();
        let pb = pattern_board(&b, Rule::Freestyle, &e);
        let black = threat_mask(&pb, Color::Black);
        let white = threat_mask(&pb, Color::White);
        assert_eq!(black & 0b10, 0b10, "black's open-four point: {black:b}");
        assert_eq!(black & (1 << 8), 1 << 8, "white's four point: {black:b}");
        assert_eq!(
            white & 0b100,
            0b100,
            "black's open-four point, white to move: {white:b}"
        );
        assert_eq!(
            white & (1 << 4),
            1 << 4,
            "white's own four point: {white:b}"
        );
        assert_eq!(black & 1, 0, "nobody has a five point");
    }
}
