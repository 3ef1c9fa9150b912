//! The functions an expression may call, with their domains checked so that
//! the model gets "sqrt of a negative number" rather than NaN.

use crate::eval::{cancel_noise, Angle};

fn arity(name: &str, args: &[f64], min: usize, max: usize) -> Result<(), String> {
    if args.len() < min || args.len() > max {
        let want = if min == max { format!("{}", min) } else if max == usize::MAX { format!("at least {}", min) } else { format!("{} or {}", min, max) };
        let plural = if min == 1 && max == 1 { "argument" } else { "arguments" };
        return Err(format!("{} expects {} {}, got {}", name, want, plural, args.len()));
    }
    Ok(())
}

pub fn call(name: &str, args: &[f64], angle: Angle) -> Result<f64, String> {
    let to_rad = |x: f64| if angle == Angle::Degrees { x.to_radians() } else { x };
    let from_rad = |x: f64| if angle == Angle::Degrees { x.to_degrees() } else { x };
    match name {
        "min" | "max" => {
            arity(name, args, 1, usize::MAX)?;
            let pick = if name == "min" { f64::min } else { f64::max };
            return Ok(args[1..].iter().fold(args[0], |a, &b| pick(a, b)));
        }
        "log" => {
            arity(name, args, 1, 2)?;
            let x = args[0];
            if x <= 0.0 {
                return Err(format!("logarithm of a non-positive number ({})", x));
            }
            return match args.get(1) {
                None => Ok(x.log10()),
                Some(&b) if b <= 0.0 || b == 1.0 => Err(format!("invalid logarithm base {}", b)),
                Some(&b) => Ok(x.ln() / b.ln()),
            };
        }
        _ => arity(name, args, 1, 1)?,
    }
    let x = args[0];
    let domain = |ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("{} of {} is undefined", what, x)) };
    Ok(match name {
        "sqrt" => {
            if x < 0.0 {
                return Err(format!("sqrt of a negative number ({})", x));
            }
            x.sqrt()
        }
        // sin(pi) is 1.2e-16 in floating point; snap that noise to the true 0.
        "sin" => cancel_noise(to_rad(x).sin(), to_rad(x), 0.0),
        "cos" => cancel_noise(to_rad(x).cos(), to_rad(x), 0.0),
        "tan" => {
            // In degrees, tan(90) must be an error, not 1.6e16 from rounding pi/2.
            if angle == Angle::Degrees && (x - 90.0).rem_euclid(180.0) == 0.0 {
                return Err(format!("tan of {} degrees is undefined", x));
            }
            cancel_noise(to_rad(x).tan(), to_rad(x), 0.0)
        }
        "asin" => {
            domain((-1.0..=1.0).contains(&x), "asin")?;
            from_rad(x.asin())
        }
        "acos" => {
            domain((-1.0..=1.0).contains(&x), "acos")?;
            from_rad(x.acos())
        }
        "atan" => from_rad(x.atan()),
        "ln" => {
            if x <= 0.0 {
                return Err(format!("logarithm of a non-positive number ({})", x));
            }
            x.ln()
        }
        "exp" => x.exp(),
        "abs" => x.abs(),
        "floor" => x.floor(),
        "ceil" => x.ceil(),
        // Half away from zero, as people expect: round(2.5) = 3, round(-2.5) = -3.
        "round" => x.round(),
        _ => return Err(format!("unknown function '{}'", name)),
    })
}
