//! Property tests: round trips and ordering.

use oid_core::ObjectId;
use proptest::prelude::*;

fn config() -> ProptestConfig {
    // Miri is orders of magnitude slower; keep its run short.
    ProptestConfig::with_cases(if cfg!(miri) { 8 } else { 2048 })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn bytes_hex_parse_round_trip(bytes in any::<[u8; 12]>()) {
        let id = ObjectId::from_bytes(bytes);
        let hex = id.to_hex();
        prop_assert_eq!(hex.len(), 24);
        prop_assert!(hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
        prop_assert_eq!(ObjectId::parse_str(&hex), Ok(id));
        prop_assert_eq!(ObjectId::parse_str(&id.to_hex_upper()), Ok(id));
        prop_assert_eq!(id.to_string(), hex.as_str());
        let mut buf = [0u8; 24];
        prop_assert_eq!(id.encode_hex(&mut buf), hex.as_str());
    }

    #[test]
    fn ordering_matches_lowercase_hex(a in any::<[u8; 12]>(), b in any::<[u8; 12]>()) {
        let (a, b) = (ObjectId::from_bytes(a), ObjectId::from_bytes(b));
        prop_assert_eq!(a.cmp(&b), a.to_hex().as_str().cmp(b.to_hex().as_str()));
    }

    #[test]
    fn parts_round_trip(ts in any::<u32>(), random in any::<[u8; 5]>(), counter in 0u32..(1 << 24)) {
        let id = ObjectId::from_parts(ts, random, counter);
        let p = id.to_parts();
        prop_assert_eq!((p.timestamp, p.random, p.counter), (ts, random, counter));
        let l = id.to_legacy_parts();
        prop_assert_eq!(ObjectId::from_legacy_parts(l.timestamp, l.machine, l.process_id, l.counter), id);
        prop_assert!(ObjectId::min_for_timestamp(ts) <= id && id <= ObjectId::max_for_timestamp(ts));
    }

    #[test]
    fn parse_never_panics_and_agrees_with_a_simple_model(s in "\\PC{0,30}") {
        let model = s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit());
        prop_assert_eq!(ObjectId::parse_str(&s).is_ok(), model);
        prop_assert_eq!(ObjectId::is_valid(&s), model);
    }

    #[test]
    fn near_misses_report_the_right_character(bytes in any::<[u8; 12]>(), pos in 0usize..24, bad in "[^0-9a-fA-F]") {
        let hex = ObjectId::from_bytes(bytes).to_hex();
        let mut chars: Vec<char> = hex.chars().collect();
        let bad_char = bad.chars().next().unwrap();
        chars[pos] = bad_char;
        let s: String = chars.into_iter().collect();
        let err = ObjectId::parse_str(&s).unwrap_err();
        prop_assert_eq!(err.invalid_char(), Some((bad_char, pos)));
    }
}
