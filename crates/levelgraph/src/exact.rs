//! Elementary functions with IEEE-exact operations only (+, −, ×, ÷,
//! sqrt, rounding): the platform's `ln` and `exp` may differ in the last
//! bit between systems, and a last bit can flip a random choice, so
//! everything that reaches an output uses these instead (ARCHITECTURE.md,
//! "determinism").

/// Natural logarithm of `x` > 0 with IEEE-exact operations only (so the
/// same bits on every platform): `x = m · 2^e` with `m` in [√½, √2),
/// then `ln m = 2 atanh((m − 1)/(m + 1))` by its series, to within a few
/// units in the last place. `x ≤ 0` or NaN gives −∞ (a spring at zero length
/// pushes as hard as the step cap allows).
pub(crate) fn ln(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    let (mut m, mut e) = frexp(x);
    if m < std::f64::consts::FRAC_1_SQRT_2 {
        m *= 2.0;
        e -= 1;
    }
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    // |z| ≤ 0.172, so z^(2k+1)/(2k+1) is below 1e-17 from k = 11 on.
    let mut term = z;
    let mut sum = 0.0;
    for k in 0..12 {
        sum += term / f64::from(2 * k + 1);
        term *= z2;
    }
    2.0 * sum + f64::from(e) * std::f64::consts::LN_2
}

/// `x = m · 2^e` with `m` in [0.5, 1) for finite positive `x`, by the bits.
fn frexp(x: f64) -> (f64, i32) {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    if exponent == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(x * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exponent - 1022)
}

/// `e^x` with IEEE-exact operations only: `x = k·ln 2 + r` with `|r| ≤
/// ln 2 / 2` (ln 2 split in two parts so that `r` is exact to the last
/// bits), `e^r` by its Taylor series, then scaled by `2^k` through the
/// exponent bits. Within a few units in the last place of the true value;
/// overflows to +∞ above 709.78 and underflows to 0 below −745.
pub(crate) fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 709.78 {
        return f64::INFINITY;
    }
    if x < -745.2 {
        return 0.0;
    }
    // ln 2 = LN2_HI + LN2_LO, LN2_HI with trailing zero bits so k·LN2_HI
    // is exact for |k| < 2^11.
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    let k = (x * std::f64::consts::LOG2_E).round();
    let r = (x - k * LN2_HI) - k * LN2_LO;
    // |r| ≤ 0.347: r^18 / 18! is below 1e-24.
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..18 {
        term *= r / f64::from(n);
        sum += term;
    }
    scale_by_power_of_two(sum, k as i32)
}

/// `m · 2^k` by the exponent bits, in up to three exact steps.
fn scale_by_power_of_two(mut m: f64, mut k: i32) -> f64 {
    let power = |e: i32| f64::from_bits(((e + 1023) as u64) << 52);
    while k > 1000 {
        m *= power(1000);
        k -= 1000;
    }
    while k < -1000 {
        m *= power(-1000);
        k += 1000;
    }
    m * power(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_matches_the_platform_logarithm_closely() {
        for &x in &[
            1e-300, 1e-10, 0.001, 0.5, 0.707, 1.0, 1.5, 2.0, 3.0, 10.0, 12345.678, 1e300,
        ] {
            let (ours, std) = (ln(x), x.ln());
            assert!(
                (ours - std).abs() <= 1e-14 * std.abs().max(1.0),
                "ln({x}): {ours} vs {std}"
            );
        }
        assert_eq!(ln(1.0), 0.0);
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        assert!(ln(f64::MIN_POSITIVE / 8.0).is_finite());
    }

    #[test]
    fn exp_matches_the_platform_exponential_closely() {
        for &x in &[
            -745.0, -700.0, -50.5, -1.0, -0.3, -1e-9, 0.0, 1e-9, 0.2, 0.5, 1.0, 2.5, 10.0, 88.7,
            700.0,
        ] {
            let (ours, std) = (exp(x), x.exp());
            assert!(
                (ours - std).abs() <= 4e-16 * std.abs() || (ours - std).abs() < 1e-320,
                "exp({x}): {ours} vs {std}"
            );
        }
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(800.0), f64::INFINITY);
        assert_eq!(exp(-800.0), 0.0);
        assert!((exp(ln(7.5)) - 7.5).abs() < 1e-14);
        // The split of ln 2 is fdlibm's: its high part has 21 trailing zero
        // bits, the two parts add to ln 2.
        assert_eq!(6.931_471_803_691_238e-1f64.to_bits(), 0x3fe6_2e42_fee0_0000);
        assert_eq!(
            1.908_214_929_270_587_7e-10f64.to_bits(),
            0x3dea_39ef_3579_3c76
        );
    }
}
