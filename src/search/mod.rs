//! The full-strength search.

pub mod vcf;
