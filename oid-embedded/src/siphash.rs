//! SipHash-2-4 (Aumasson and Bernstein, 2012), the mixing function of
//! [`DeviceIdEntropy`](crate::DeviceIdEntropy): a keyed hash whose 64-bit outputs for distinct
//! inputs behave like independent random values, however structured the inputs are (serial
//! numbers, consecutive boot counts). Written byte by byte, for small code rather than speed:
//! it runs once per boot.

pub(crate) struct SipHash24 {
    v: [u64; 4],
    /// Message bytes not yet compressed, little-endian.
    tail: u64,
    /// How many bytes `tail` holds (0..8).
    ntail: u32,
    /// Message length so far; only its low byte enters the hash.
    len: u8,
}

impl SipHash24 {
    pub(crate) const fn new(key: &[u8; 16]) -> SipHash24 {
        let [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p] = *key;
        let k0 = u64::from_le_bytes([a, b, c, d, e, f, g, h]);
        let k1 = u64::from_le_bytes([i, j, k, l, m, n, o, p]);
        SipHash24 {
            v: [
                k0 ^ 0x736f_6d65_7073_6575,
                k1 ^ 0x646f_7261_6e64_6f6d,
                k0 ^ 0x6c79_6765_6e65_7261,
                k1 ^ 0x7465_6462_7974_6573,
            ],
            tail: 0,
            ntail: 0,
            len: 0,
        }
    }

    const fn round(&mut self) {
        let [v0, v1, v2, v3] = &mut self.v;
        *v0 = v0.wrapping_add(*v1);
        *v1 = v1.rotate_left(13) ^ *v0;
        *v0 = v0.rotate_left(32);
        *v2 = v2.wrapping_add(*v3);
        *v3 = v3.rotate_left(16) ^ *v2;
        *v0 = v0.wrapping_add(*v3);
        *v3 = v3.rotate_left(21) ^ *v0;
        *v2 = v2.wrapping_add(*v1);
        *v1 = v1.rotate_left(17) ^ *v2;
        *v2 = v2.rotate_left(32);
    }

    const fn compress(&mut self, m: u64) {
        self.v[3] ^= m;
        self.round();
        self.round();
        self.v[0] ^= m;
    }

    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.tail |= u64::from(b) << (8 * self.ntail);
            self.ntail += 1;
            self.len = self.len.wrapping_add(1);
            if self.ntail == 8 {
                self.compress(self.tail);
                self.tail = 0;
                self.ntail = 0;
            }
        }
    }

    pub(crate) fn finish(mut self) -> u64 {
        let last = (u64::from(self.len) << 56) | self.tail;
        self.compress(last);
        self.v[2] ^= 0xff;
        for _ in 0..4 {
            self.round();
        }
        let [v0, v1, v2, v3] = self.v;
        v0 ^ v1 ^ v2 ^ v3
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::vec::Vec;

    const KEY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

    fn hash(key: &[u8; 16], msg: &[u8]) -> u64 {
        let mut h = SipHash24::new(key);
        h.write(msg);
        h.finish()
    }

    /// The test vectors of the SipHash paper (appendix A) and of the reference
    /// implementation's `vectors.h` (key 00..0f, message 00..len-1, output little-endian).
    #[test]
    fn reference_vectors() {
        let msg: Vec<u8> = (0..64).collect();
        assert_eq!(hash(&KEY, &msg[..15]), 0xa129_ca61_49be_45e5);
        assert_eq!(
            hash(&KEY, &[]).to_le_bytes(),
            [0x31, 0x0e, 0x0e, 0xdd, 0x47, 0xdb, 0x6f, 0x72]
        );
    }

    /// The standard library's `SipHasher` is SipHash-2-4 too (deprecated only as a choice of
    /// `Hasher`, not as an algorithm): the two agree on every key, length and split.
    #[allow(deprecated)]
    fn std_siphash(key: &[u8; 16], msg: &[u8]) -> u64 {
        use core::hash::Hasher;
        let k0 = u64::from_le_bytes(key[..8].try_into().unwrap());
        let k1 = u64::from_le_bytes(key[8..].try_into().unwrap());
        let mut h = core::hash::SipHasher::new_with_keys(k0, k1);
        h.write(msg);
        h.finish()
    }

    #[test]
    fn agrees_with_std_for_every_length_up_to_300() {
        let msg: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        for len in 0..=300 {
            assert_eq!(
                hash(&KEY, &msg[..len]),
                std_siphash(&KEY, &msg[..len]),
                "{len}"
            );
        }
    }

    proptest! {
        #[test]
        fn agrees_with_std_and_writes_compose(
            key in any::<[u8; 16]>(),
            msg in proptest::collection::vec(any::<u8>(), 0..100),
            split in any::<prop::sample::Index>(),
        ) {
            let at = split.index(msg.len() + 1);
            let mut h = SipHash24::new(&key);
            h.write(&msg[..at]);
            h.write(&msg[at..]);
            prop_assert_eq!(h.finish(), std_siphash(&key, &msg));
        }
    }
}
