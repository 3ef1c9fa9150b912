//! MD5 (RFC 1321). Broken for security; offered to match existing checksums.

use crate::digest::Compress;

const S: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4, 11, 16,
    23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

pub struct Md5 {
    state: [u32; 4],
    k: [u32; 64],
}

impl Md5 {
    pub fn new() -> Md5 {
        // K[i] = floor(2^32 × |sin(i + 1)|) (RFC 1321 §3.4), computed rather
        // than transcribed; the known-vector tests pin the result.
        let mut k = [0u32; 64];
        for (i, v) in k.iter_mut().enumerate() {
            *v = (((i + 1) as f64).sin().abs() * 4294967296.0) as u32;
        }
        Md5 { state: [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476], k }
    }
}

impl Compress for Md5 {
    const LITTLE_ENDIAN_LENGTH: bool = true;

    fn compress(&mut self, block: &[u8; 64]) {
        let mut m = [0u32; 16];
        for i in 0..16 {
            m[i] = u32::from_le_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]]);
        }
        let [mut a, mut b, mut c, mut d] = self.state;
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let f = f.wrapping_add(a).wrapping_add(self.k[i]).wrapping_add(m[g]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(f.rotate_left(S[i]));
        }
        for (s, v) in self.state.iter_mut().zip([a, b, c, d]) {
            *s = s.wrapping_add(v);
        }
    }

    fn output(&self) -> Vec<u8> {
        self.state.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
}
