//! The Merkle–Damgård framing shared by MD5, SHA-1 and SHA-256: buffer input
//! into 64-byte blocks, then pad with 0x80, zeros and the bit length.

pub trait Compress {
    fn compress(&mut self, block: &[u8; 64]);
    /// The final state as bytes.
    fn output(&self) -> Vec<u8>;
    /// MD5 writes the length little-endian; the SHAs big-endian.
    const LITTLE_ENDIAN_LENGTH: bool;
}

pub struct Hasher<C: Compress> {
    state: C,
    buf: [u8; 64],
    used: usize,
    len: u64,
}

impl<C: Compress> Hasher<C> {
    pub fn new(state: C) -> Self {
        Hasher { state, buf: [0; 64], used: 0, len: 0 }
    }

    pub fn update(&mut self, mut data: &[u8]) {
        self.len = self.len.wrapping_add(data.len() as u64);
        while !data.is_empty() {
            let take = (64 - self.used).min(data.len());
            self.buf[self.used..self.used + take].copy_from_slice(&data[..take]);
            self.used += take;
            data = &data[take..];
            if self.used == 64 {
                let block = self.buf;
                self.state.compress(&block);
                self.used = 0;
            }
        }
    }

    pub fn finish(mut self) -> Vec<u8> {
        let bits = self.len.wrapping_mul(8);
        let mut tail = vec![0x80u8];
        let pad = (64 + 56 - (self.used + 1) % 64) % 64;
        tail.extend(std::iter::repeat(0).take(pad));
        tail.extend_from_slice(&if C::LITTLE_ENDIAN_LENGTH { bits.to_le_bytes() } else { bits.to_be_bytes() });
        let len = self.len;
        self.update(&tail);
        self.len = len;
        debug_assert_eq!(self.used, 0);
        self.state.output()
    }
}
