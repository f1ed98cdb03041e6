//! Fair choices. Each learner sees a question's choices in an order of their
//! own, seeded and stable (a class discussing "B" in presenter mode uses the
//! authored order, the same for everyone); and across the course the right
//! answers are spread over the positions and are not systematically the
//! longest choice (learners who cannot tell learn to pick "A" or the longest).

use super::model::{Choice, Lesson};

/// SplitMix64: a small, well-mixed step for the learner's shuffles (not the
/// simulation's RNG, which never sees these).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FNV-1a of a string (the lesson and step ids, so an order survives edits elsewhere).
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The display order of `n` options (display position → option index): the
/// authored order without a learner seed, else a shuffle fixed by the seed,
/// the lesson and the step.
pub fn order(n: usize, learner: Option<u64>, lesson: &str, step: &str) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let Some(seed) = learner else { return order };
    let mut state = mix(seed ^ fnv(lesson) ^ fnv(step).rotate_left(17));
    for i in (1..n).rev() {
        state = mix(state);
        let j = (state % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// The letter of display position `i` (A, B, C...).
pub fn letter(i: usize) -> char {
    (b'A' + (i % 26) as u8) as char
}

/// No answer position may hold more than this share of the course's right answers.
pub const MAX_POSITION_SHARE: f64 = 0.4;
/// The right answer may be the strictly longest choice in at most this share of questions.
pub const MAX_LONGEST_SHARE: f64 = 0.4;

/// Course-wide balance of the authored choice questions: every problem, each
/// naming the positions or questions concerned.
pub fn balance(lessons: &[Lesson]) -> Vec<String> {
    let mut errors = Vec::new();
    let mut positions: Vec<Vec<String>> = Vec::new();
    let mut longest = Vec::new();
    let mut total = 0usize;
    for l in lessons {
        let mut mine = Vec::new();
        for (i, s) in l.steps.iter().enumerate() {
            let Some(q) = &s.question else { continue };
            let Choice::Index(a) = q.answer else { continue };
            if q.choices.len() < 2 || a >= q.choices.len() {
                continue;
            }
            total += 1;
            let at = format!("lesson {} step {} ({})", l.number, i + 1, s.id);
            if positions.len() <= a {
                positions.resize(a + 1, Vec::new());
            }
            positions[a].push(at.clone());
            mine.push(a);
            let len = |t: &super::Text| t.en.chars().count();
            let right = len(&q.choices[a]);
            if q.choices.iter().enumerate().all(|(k, c)| k == a || len(c) < right) {
                longest.push(at);
            }
        }
        if mine.len() >= 3 && mine.iter().all(|a| *a == mine[0]) {
            errors.push(format!(
                "lesson {} ({}): all {} right answers are choice {}; vary their positions",
                l.number,
                l.id,
                mine.len(),
                letter(mine[0])
            ));
        }
    }
    if total >= 5 {
        let cap = (total as f64 * MAX_POSITION_SHARE).ceil() as usize;
        for (a, at) in positions.iter().enumerate() {
            if at.len() > cap {
                errors.push(format!(
                    "course: {} of {total} right answers are choice {} (at most {cap}); move some of them: {}",
                    at.len(),
                    letter(a),
                    at.join(", ")
                ));
            }
        }
        let cap = (total as f64 * MAX_LONGEST_SHARE).floor() as usize;
        if longest.len() > cap {
            errors.push(format!(
                "course: the right answer is the longest choice in {} of {total} questions (at most {cap}); shorten it or lengthen a wrong one: {}",
                longest.len(),
                longest.join(", ")
            ));
        }
    }
    errors
}
