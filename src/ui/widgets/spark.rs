//! A one-line sparkline in unicode blocks (`▁▂▃▄▅▆▇█`), for a counter's
//! trend beside it: scaled from the lowest to the highest value shown, so a
//! change of a few leads in thousands still shows; a flat series is a flat
//! line at the bottom, a missing value a gap.

/// The eight heights, lowest first.
const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The last `width` values as blocks, right-aligned (older values are
/// left out; fewer values than `width` leave the left blank).
pub(crate) fn spark(values: &[Option<u64>], width: usize) -> String {
    let shown = &values[values.len().saturating_sub(width)..];
    let known = shown.iter().flatten().copied();
    let (lo, hi) = known.fold((u64::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let span = u128::from(hi.saturating_sub(lo));
    let top = BLOCKS.len() as u128 - 1;
    let mut out = " ".repeat(width - shown.len());
    for v in shown {
        out.push(match v {
            None => ' ',
            Some(_) if span == 0 => BLOCKS[0],
            Some(v) => {
                // Rounded to the nearest height.
                let step = (u128::from(v - lo) * top + span / 2) / span;
                BLOCKS[usize::try_from(step).unwrap_or(0).min(BLOCKS.len() - 1)]
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_scale_between_the_lowest_and_the_highest_shown() {
        let v = |xs: &[u64]| xs.iter().map(|x| Some(*x)).collect::<Vec<_>>();
        assert_eq!(spark(&v(&[0, 7]), 2), "▁█");
        assert_eq!(spark(&v(&[1000, 1001, 1002, 1007]), 4), "▁▂▃█");
        assert_eq!(spark(&v(&[5, 5, 5]), 3), "▁▁▁", "flat is flat");
        assert_eq!(spark(&v(&[u64::MAX, 0]), 2), "█▁", "no overflow");
    }

    #[test]
    fn only_the_last_values_fit_and_gaps_stay_gaps() {
        let v = [Some(100), Some(0), Some(1), None, Some(2)];
        assert_eq!(spark(&v, 3), "▁ █", "the 100 is out of view");
        assert_eq!(spark(&v, 7).chars().count(), 7);
        assert!(spark(&v, 7).starts_with("  █▁"), "{}", spark(&v, 7));
        assert_eq!(spark(&[], 4), "    ");
        assert_eq!(spark(&[None, None], 2), "  ");
        assert_eq!(spark(&v, 0), "");
    }
}
