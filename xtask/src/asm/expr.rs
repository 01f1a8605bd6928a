//! RGBDS arithmetic on 32-bit signed values, and [`Expr`] constructors that fold what the
//! assembler already knows (both operands numbers, two addresses in the same section...).
//!
//! [`eval_binary`] and [`eval_unary`] are the one definition of every operator's result,
//! for the assembler and the linker alike.

use super::object::{BinaryOp, Expr, UnaryOp};

/// `a op b` as RGBDS computes it (wrapping 32-bit, division rounding toward minus infinity).
pub fn eval_binary(op: BinaryOp, a: i32, b: i32) -> Result<i32, String> {
    Ok(match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::Div => {
            if b == 0 {
                return Err("Division by zero".to_string());
            }
            floor_div(a, b)
        }
        BinaryOp::Mod => {
            if b == 0 {
                return Err("Modulo by zero".to_string());
            }
            a.wrapping_sub(floor_div(a, b).wrapping_mul(b))
        }
        BinaryOp::Pow => {
            if b < 0 {
                return Err("Exponentiation by negative power".to_string());
            }
            let mut result: i32 = 1;
            let mut base = a;
            let mut exponent = b as u32;
            while exponent > 0 {
                if exponent & 1 == 1 {
                    result = result.wrapping_mul(base);
                }
                base = base.wrapping_mul(base);
                exponent >>= 1;
            }
            result
        }
        BinaryOp::Shl => shift_left(a, b),
        BinaryOp::Shr => shift_right(a, b),
        BinaryOp::Ushr => {
            if b < 0 {
                shift_left(a, b.saturating_neg())
            } else if b >= 32 {
                0
            } else {
                ((a as u32) >> b) as i32
            }
        }
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::LogicalAnd => (a != 0 && b != 0) as i32,
        BinaryOp::LogicalOr => (a != 0 || b != 0) as i32,
        BinaryOp::Eq => (a == b) as i32,
        BinaryOp::Ne => (a != b) as i32,
        BinaryOp::Lt => (a < b) as i32,
        BinaryOp::Gt => (a > b) as i32,
        BinaryOp::Le => (a <= b) as i32,
        BinaryOp::Ge => (a >= b) as i32,
    })
}

pub fn eval_unary(op: UnaryOp, a: i32) -> i32 {
    match op {
        UnaryOp::Negate => a.wrapping_neg(),
        UnaryOp::Complement => !a,
        UnaryOp::Not => (a == 0) as i32,
        UnaryOp::High => (a >> 8) & 0xFF,
        UnaryOp::Low => a & 0xFF,
    }
}

fn floor_div(a: i32, b: i32) -> i32 {
    let quotient = a.wrapping_div(b);
    if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
        quotient.wrapping_sub(1)
    } else {
        quotient
    }
}

fn shift_left(a: i32, b: i32) -> i32 {
    if b < 0 {
        shift_right(a, b.saturating_neg())
    } else if b >= 32 {
        0
    } else {
        ((a as u32) << b) as i32
    }
}

fn shift_right(a: i32, b: i32) -> i32 {
    if b < 0 {
        shift_left(a, b.saturating_neg())
    } else if b >= 32 {
        if a < 0 {
            -1
        } else {
            0
        }
    } else {
        a >> b
    }
}

/// `a op b`, computed now when the assembler can.
pub fn binary(op: BinaryOp, a: Expr, b: Expr) -> Result<Expr, String> {
    match (&a, &b) {
        (Expr::Number(x), Expr::Number(y)) => return eval_binary(op, *x, *y).map(Expr::Number),
        (
            Expr::SectionAddress {
                section: s1,
                offset: o1,
            },
            Expr::SectionAddress {
                section: s2,
                offset: o2,
            },
        ) if s1 == s2 => {
            let difference = *o1 as i32 - *o2 as i32;
            match op {
                BinaryOp::Sub => return Ok(Expr::Number(difference)),
                BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Gt
                | BinaryOp::Le
                | BinaryOp::Ge => return eval_binary(op, difference, 0).map(Expr::Number),
                _ => {}
            }
        }
        _ => {}
    }
    let zero = |e: &Expr| *e == Expr::Number(0);
    let nonzero = |e: &Expr| matches!(e, Expr::Number(n) if *n != 0);
    match op {
        BinaryOp::LogicalAnd | BinaryOp::And if zero(&a) || zero(&b) => Ok(Expr::Number(0)),
        BinaryOp::LogicalOr if nonzero(&a) || nonzero(&b) => Ok(Expr::Number(1)),
        _ => Ok(Expr::Binary(op, Box::new(a), Box::new(b))),
    }
}

/// `op a`, computed now when the assembler can.
pub fn unary(op: UnaryOp, a: Expr) -> Expr {
    match a {
        Expr::Number(n) => Expr::Number(eval_unary(op, n)),
        other => Expr::Unary(op, Box::new(other)),
    }
}

/// Replaces every symbol `resolve` knows by its value, and folds again.
pub fn substitute(
    expr: &Expr,
    resolve: &mut dyn FnMut(&str) -> Option<Expr>,
) -> Result<Expr, String> {
    Ok(match expr {
        Expr::Symbol(name) => resolve(name).unwrap_or_else(|| expr.clone()),
        Expr::Unary(op, a) => unary(*op, substitute(a, resolve)?),
        Expr::Binary(op, a, b) => binary(*op, substitute(a, resolve)?, substitute(b, resolve)?)?,
        other => other.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(op: BinaryOp, a: i32, b: i32) -> i32 {
        eval_binary(op, a, b).unwrap()
    }

    #[test]
    fn division_rounds_toward_minus_infinity() {
        assert_eq!(eval(BinaryOp::Div, -17, 5), -4);
        assert_eq!(eval(BinaryOp::Mod, -17, 5), 3);
        assert_eq!(eval(BinaryOp::Div, 17, -5), -4);
        assert_eq!(eval(BinaryOp::Mod, 17, -5), -3);
        assert_eq!(eval(BinaryOp::Div, 17, 5), 3);
        assert_eq!(eval(BinaryOp::Mod, 17, 5), 2);
        assert_eq!(eval(BinaryOp::Div, i32::MIN, -1), i32::MIN);
        assert_eq!(
            eval_binary(BinaryOp::Div, 1, 0).unwrap_err(),
            "Division by zero"
        );
        assert_eq!(
            eval_binary(BinaryOp::Mod, 1, 0).unwrap_err(),
            "Modulo by zero"
        );
    }

    #[test]
    fn shifts_and_power() {
        assert_eq!(eval(BinaryOp::Shr, -16, 2), -4);
        assert_eq!(eval(BinaryOp::Ushr, -16, 28), 15);
        assert_eq!(eval(BinaryOp::Shl, 1, 33), 0);
        assert_eq!(eval(BinaryOp::Shl, 8, -2), 2);
        assert_eq!(eval(BinaryOp::Pow, 5, 2), 25);
        assert_eq!(eval(BinaryOp::Pow, 2, 0), 1);
        assert_eq!(
            eval_binary(BinaryOp::Pow, 2, -1).unwrap_err(),
            "Exponentiation by negative power"
        );
    }

    #[test]
    fn high_low_and_not() {
        assert_eq!(eval_unary(UnaryOp::High, 0x1234), 0x12);
        assert_eq!(eval_unary(UnaryOp::Low, 0xABCD), 0xCD);
        assert_eq!(eval_unary(UnaryOp::Not, 5), 0);
        assert_eq!(eval_unary(UnaryOp::Complement, 0), -1);
    }

    #[test]
    fn folding_addresses_in_one_section() {
        let at = |offset| Expr::SectionAddress { section: 1, offset };
        assert_eq!(binary(BinaryOp::Sub, at(9), at(3)), Ok(Expr::Number(6)));
        assert_eq!(binary(BinaryOp::Lt, at(3), at(9)), Ok(Expr::Number(1)));
        let other = Expr::SectionAddress {
            section: 2,
            offset: 0,
        };
        assert!(matches!(
            binary(BinaryOp::Sub, at(9), other),
            Ok(Expr::Binary(..))
        ));
        let unknown = Expr::Symbol("X".to_string());
        assert_eq!(
            binary(BinaryOp::LogicalAnd, unknown.clone(), Expr::Number(0)),
            Ok(Expr::Number(0))
        );
        assert_eq!(
            binary(BinaryOp::LogicalOr, Expr::Number(2), unknown),
            Ok(Expr::Number(1))
        );
    }

    #[test]
    fn substitute_folds_what_becomes_known() {
        let expr = Expr::Binary(
            BinaryOp::Add,
            Box::new(Expr::Symbol("A".to_string())),
            Box::new(Expr::Number(1)),
        );
        let folded = substitute(&expr, &mut |name| (name == "A").then_some(Expr::Number(4)));
        assert_eq!(folded, Ok(Expr::Number(5)));
    }
}
