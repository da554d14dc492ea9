//! The network's lane-by-lane kernels, and the choice of vector instructions they run on.
//!
//! The kernels are plain loops over slices, which the compiler vectorises (the update's
//! hot ones in blocks of [`LANES`], see there); they are integer operations, so every
//! instruction set gives the same numbers, and what differs is how many lanes one
//! instruction takes. The build targets plain x86-64 (SSE2: 8 i16
//! lanes, and no 32-bit multiply for the value layer's dot products). [`Simd::detect`]
//! finds AVX2 at run time (16 i16 lanes, `vpmulld`); a caller told so runs its work inside
//! a function compiled for it (`#[target_feature(enable = "avx2")]`), into which these
//! kernels and the work around them are inlined (`#[inline(always)]`: a kernel compiled
//! apart would run on the build's instructions). The Windows build is the same x86-64
//! target and makes the same check.

/// The vector instructions the incremental state runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simd {
    /// What the build targets (SSE2 on x86-64).
    Portable,
    /// AVX2, found at run time.
    Avx2,
}

impl Simd {
    /// The best this CPU has.
    #[must_use]
    pub fn detect() -> Simd {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Simd::Avx2;
        }
        Simd::Portable
    }
}

/// The largest activation: activations are bytes `0..=ACT_MAX` (the network file's
/// arithmetic, docs/network.md).
pub(super) const ACT_MAX: i32 = 127;

/// A feature sum's activation, `clamp(x >> shift, 0, ACT_MAX)`, in 16 bits (16 lanes to a
/// vector where i32 has 8; the shift is below 16, so the value is the i32 one's).
#[inline(always)]
fn feature_activation(x: i16, shift: u32) -> i16 {
    (x >> shift).clamp(0, ACT_MAX as i16)
}

/// Lanes a kernel takes at once: one AVX2 vector of i16. A block is computed into a local
/// array and then stored: inlined, a kernel's slices may alias as far as the compiler
/// knows, and a loop whose stores might feed its loads is vectorised only behind a run-time
/// overlap check, or, with a length known at compile time, not at all.
const LANES: usize = 16;

/// A block of `LANES` values, copied out of its slice (`chunks_exact` gives that length).
#[inline(always)]
fn block<T: Copy + Default>(x: &[T]) -> [T; LANES] {
    let mut out = [T::default(); LANES];
    out.copy_from_slice(x);
    out
}

/// `out = feature_activation(x)`, lane by lane.
#[inline(always)]
pub(super) fn activate(x: &[i16], shift: u32, out: &mut [i16]) {
    let mut outs = out.chunks_exact_mut(LANES);
    let xs = x.chunks_exact(LANES);
    let tail = xs.remainder();
    for (o, x) in (&mut outs).zip(xs) {
        let x = block(x);
        let mut y = [0; LANES];
        for k in 0..LANES {
            y[k] = feature_activation(x[k], shift);
        }
        o.copy_from_slice(&y);
    }
    for (o, &x) in outs.into_remainder().iter_mut().zip(tail) {
        *o = feature_activation(x, shift);
    }
}

/// `x += row`: a feature sum gains an input's row.
#[inline(always)]
pub(super) fn add_row(x: &mut [i16], row: &[i16]) {
    for (x, &r) in x.iter_mut().zip(row) {
        *x += r;
    }
}

/// `x += add - out`: a feature sum trades one input's row for another. The caller knows
/// the result is within i16 (the loader's bound on a cell's sum).
#[inline(always)]
pub(super) fn swap_row(x: &mut [i16], out: &[i16], add: &[i16]) {
    let lane = |x: i16, o: i16, a: i16| x - o + a;
    let mut xs = x.chunks_exact_mut(LANES);
    let (os, adds) = (out.chunks_exact(LANES), add.chunks_exact(LANES));
    let (o_tail, a_tail) = (os.remainder(), adds.remainder());
    for ((x, o), a) in (&mut xs).zip(os).zip(adds) {
        let (o, a) = (block(o), block(a));
        let mut y = block(x);
        for k in 0..LANES {
            y[k] = lane(y[k], o[k], a[k]);
        }
        x.copy_from_slice(&y);
    }
    for ((x, &o), &a) in xs.into_remainder().iter_mut().zip(o_tail).zip(a_tail) {
        *x = lane(*x, o, a);
    }
}

/// `act = new`, the change added to `pooled` (the sum of `act` over the cells): a cell's
/// activations replaced.
#[inline(always)]
pub(super) fn set_activations(new: &[i16], act: &mut [i16], pooled: &mut [i32]) {
    let lane = |s: i32, old: i16, new: i16| s + i32::from(new) - i32::from(old);
    let (mut acts, mut sums) = (act.chunks_exact_mut(LANES), pooled.chunks_exact_mut(LANES));
    let news = new.chunks_exact(LANES);
    let new_tail = news.remainder();
    for ((a, s), n) in (&mut acts).zip(&mut sums).zip(news) {
        let (old, n) = (block(a), block(n));
        let mut y = block(s);
        for k in 0..LANES {
            y[k] = lane(y[k], old[k], n[k]);
        }
        s.copy_from_slice(&y);
        a.copy_from_slice(&n);
    }
    let tail = acts.into_remainder().iter_mut().zip(sums.into_remainder());
    for ((a, s), &n) in tail.zip(new_tail) {
        *s = lane(*s, *a, n);
        *a = n;
    }
}

/// `sum += a`, widened.
#[inline(always)]
pub(super) fn accumulate(sum: &mut [i32], a: &[i16]) {
    for (s, &a) in sum.iter_mut().zip(a) {
        *s += i32::from(a);
    }
}

/// The dot product of weights and inputs (the loader's bounds keep it in i32).
#[inline(always)]
pub(super) fn dot<A: Copy + Into<i32>>(w: &[i32], a: &[A]) -> i32 {
    w.iter().zip(a).map(|(&w, &a)| w * a.into()).sum()
}

/// `out` = `a` with its two halves swapped: a mirrored network's pooled sums read by the
/// other colour.
#[inline(always)]
pub(super) fn swap_halves(a: &[i32], out: &mut [i32]) {
    let half = a.len() / 2;
    out[..half].copy_from_slice(&a[half..]);
    out[half..].copy_from_slice(&a[..half]);
}
