//! The memory a loader may spend on data a file only implies (keys expanded to full arrays,
//! curves resampled per frame, orders per key): a fixed base plus a multiple of the text's
//! size. Far above any real export; it stops a small file from claiming gigabytes.

use std::cell::Cell;

/// Base allowance, bytes.
pub const BUDGET_BASE: usize = 64 << 20;
/// Allowance per byte of text.
pub const BUDGET_PER_BYTE: usize = 128;

/// Spending more than a file's allowance: the file implies more memory than any real export.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "this would expand the file's {text_len} bytes past {limit_mib} MiB of memory; refusing (the file is implausible)"
)]
pub struct BudgetExceeded {
    /// The file's size in bytes.
    pub text_len: usize,
    /// Its allowance in MiB.
    pub limit_mib: usize,
}

/// What is left of a file's allowance.
#[derive(Debug)]
pub struct Budget {
    text_len: usize,
    left: Cell<usize>,
}

impl Budget {
    /// The full allowance for a text of this many bytes.
    pub fn for_text(text_len: usize) -> Budget {
        Budget {
            text_len,
            left: Cell::new(Self::total(text_len)),
        }
    }

    fn total(text_len: usize) -> usize {
        BUDGET_BASE.saturating_add(text_len.saturating_mul(BUDGET_PER_BYTE))
    }

    /// Takes `bytes`, or says why not (the caller adds where).
    pub fn spend(&self, bytes: usize) -> Result<(), BudgetExceeded> {
        match self.left.get().checked_sub(bytes) {
            Some(left) => {
                self.left.set(left);
                Ok(())
            }
            None => Err(BudgetExceeded {
                text_len: self.text_len,
                limit_mib: Self::total(self.text_len) >> 20,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spending_stops_at_the_allowance() {
        let b = Budget::for_text(10);
        assert!(b.spend(BUDGET_BASE).is_ok());
        assert!(b.spend(10 * BUDGET_PER_BYTE).is_ok());
        let e = b.spend(1).unwrap_err();
        assert_eq!(e.text_len, 10);
        assert!(e.to_string().contains("refusing"), "{e}");
    }
}
