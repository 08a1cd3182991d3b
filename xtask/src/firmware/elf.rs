//! Reading ELF32 files: section sizes for `cargo xtask size`, and a scan for RISC-V atomic
//! instructions.

use std::path::Path;

use crate::util::Result;

/// Allocated section sizes of an ELF, by kind (as `llvm-size` counts them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Sizes {
    /// Executable code.
    pub(super) text: i64,
    /// Read-only data (the vector table included).
    pub(super) rodata: i64,
    /// Initialised data (in flash and in RAM).
    pub(super) data: i64,
    /// Zeroed data (RAM only).
    pub(super) bss: i64,
}

impl Sizes {
    pub(super) fn of(elf: &Path) -> Result<Sizes> {
        let bytes = std::fs::read(elf).map_err(|e| format!("{}: {e}", elf.display()))?;
        Ok(section_sizes(&bytes).map_err(|e| format!("{}: {e}", elf.display()))?)
    }

    /// What goes into flash: code, read-only data and the initial values of `.data`.
    pub(super) const fn flash(&self) -> i64 {
        self.text + self.rodata + self.data
    }

    pub(super) const fn minus(&self, other: &Sizes) -> Sizes {
        Sizes {
            text: self.text - other.text,
            rodata: self.rodata - other.rodata,
            data: self.data - other.data,
            bss: self.bss - other.bss,
        }
    }
}

/// One section header of an ELF32 file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Section {
    name: String,
    kind: u32,
    flags: u32,
    addr: u32,
    offset: u32,
    size: u32,
}

const SHT_NOBITS: u32 = 8;
const SHF_WRITE: u32 = 0x1;
const SHF_ALLOC: u32 = 0x2;
const SHF_EXECINSTR: u32 = 0x4;

/// Reads the section headers (and their names, when the file has a section name table) of a
/// little-endian ELF32 file: every target measured here.
fn sections(elf: &[u8]) -> std::result::Result<Vec<Section>, String> {
    let u16_at = |at: usize| {
        elf.get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .ok_or_else(|| format!("truncated ELF at {at}"))
    };
    let u32_at = |at: usize| {
        elf.get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| format!("truncated ELF at {at}"))
    };
    if elf.get(..6) != Some(b"\x7fELF\x01\x01".as_slice()) {
        return Err("not a little-endian ELF32 file".to_owned());
    }
    let shoff = u32_at(0x20)? as usize;
    let shentsize = usize::from(u16_at(0x2e)?);
    let shnum = usize::from(u16_at(0x30)?);
    let shstrndx = usize::from(u16_at(0x32)?);
    if shentsize < 40 {
        return Err(format!("section header entries of {shentsize} bytes"));
    }
    let mut out = Vec::with_capacity(shnum);
    let mut name_offsets = Vec::with_capacity(shnum);
    for i in 0..shnum {
        let at = shoff + i * shentsize;
        name_offsets.push(u32_at(at)? as usize);
        out.push(Section {
            name: String::new(),
            kind: u32_at(at + 4)?,
            flags: u32_at(at + 8)?,
            addr: u32_at(at + 12)?,
            offset: u32_at(at + 16)?,
            size: u32_at(at + 20)?,
        });
    }
    if let Some(table) = out.get(shstrndx).filter(|_| shstrndx != 0).cloned() {
        let strings = elf
            .get(table.offset as usize..(table.offset + table.size) as usize)
            .ok_or("truncated section name table")?;
        for (section, &at) in out.iter_mut().zip(&name_offsets) {
            let rest = strings.get(at..).unwrap_or_default();
            let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
            section.name = String::from_utf8_lossy(&rest[..end]).into_owned();
        }
    }
    Ok(out)
}

/// Sums the sizes of allocated sections: executable ones as text, other read-only ones as
/// rodata, writable ones with contents as data, writable ones without (`SHT_NOBITS`) as bss.
/// riscv-rt's `.stack` and `.heap` are not counted: they reserve whatever RAM is left.
fn section_sizes(elf: &[u8]) -> std::result::Result<Sizes, String> {
    let mut sizes = Sizes {
        text: 0,
        rodata: 0,
        data: 0,
        bss: 0,
    };
    for s in sections(elf)? {
        if s.flags & SHF_ALLOC == 0 || s.name == ".stack" || s.name == ".heap" {
            continue;
        }
        let slot = if s.flags & SHF_EXECINSTR != 0 {
            &mut sizes.text
        } else if s.flags & SHF_WRITE == 0 {
            &mut sizes.rodata
        } else if s.kind == SHT_NOBITS {
            &mut sizes.bss
        } else {
            &mut sizes.data
        };
        *slot += i64::from(s.size);
    }
    Ok(sizes)
}

/// The addresses of RISC-V A-extension instructions (major opcode `AMO`, `0101111`: `lr`,
/// `sc`, `amo*`) in the executable sections of a riscv32 ELF, decoding 16- and 32-bit
/// instructions in sequence (the low two bits tell the length).
pub(super) fn atomic_instructions(elf: &[u8]) -> std::result::Result<Vec<u32>, String> {
    const AMO: u32 = 0b010_1111;
    let mut found = Vec::new();
    for s in sections(elf)? {
        if s.flags & SHF_EXECINSTR == 0 || s.kind == SHT_NOBITS {
            continue;
        }
        let code = elf
            .get(s.offset as usize..(s.offset + s.size) as usize)
            .ok_or_else(|| format!("section {} outside the file", s.name))?;
        let mut at = 0;
        while at + 2 <= code.len() {
            let low = u16::from_le_bytes([code[at], code[at + 1]]);
            if low & 0b11 != 0b11 {
                at += 2; // a compressed instruction
                continue;
            }
            let Some(word) = code.get(at..at + 4) else {
                break;
            };
            let insn = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
            if insn & 0x7f == AMO {
                found.push(s.addr + at as u32);
            }
            at += 4;
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF32 image: a header and four section headers (null, text, rodata, bss) plus
    /// one non-allocated section that must not count.
    fn elf(sections: &[(u32, u32, u32)]) -> Vec<u8> {
        let mut v = vec![0u8; 52];
        v[..6].copy_from_slice(b"\x7fELF\x01\x01");
        v[0x20..0x24].copy_from_slice(&52u32.to_le_bytes());
        v[0x2e..0x30].copy_from_slice(&40u16.to_le_bytes());
        v[0x30..0x32].copy_from_slice(&(sections.len() as u16).to_le_bytes());
        for &(kind, flags, size) in sections {
            let mut h = [0u8; 40];
            h[4..8].copy_from_slice(&kind.to_le_bytes());
            h[8..12].copy_from_slice(&flags.to_le_bytes());
            h[20..24].copy_from_slice(&size.to_le_bytes());
            v.extend_from_slice(&h);
        }
        v
    }

    #[test]
    fn sums_sections_by_kind() {
        let image = elf(&[
            (0, 0, 0),      // null
            (1, 0x6, 1000), // .text: alloc + exec
            (1, 0x2, 192),  // .vector_table: alloc
            (1, 0x2, 8),    // .rodata
            (1, 0x3, 64),   // .data: alloc + write
            (8, 0x3, 32),   // .bss: nobits
            (1, 0x0, 5000), // .debug_info: not allocated
        ]);
        assert_eq!(
            section_sizes(&image),
            Ok(Sizes {
                text: 1000,
                rodata: 200,
                data: 64,
                bss: 32
            })
        );
    }

    /// An ELF32 image with named sections and contents: `(name, kind, flags, contents or
    /// NOBITS size)`, plus the name table as the last section.
    fn named_elf(sections: &[(&str, u32, u32, &[u8], u32)]) -> Vec<u8> {
        let mut names = vec![0u8];
        let mut name_at = Vec::new();
        for (name, ..) in sections {
            name_at.push(names.len() as u32);
            names.extend_from_slice(name.as_bytes());
            names.push(0);
        }
        let shstrtab_name = names.len() as u32;
        names.extend_from_slice(b".shstrtab\0");
        let mut body = Vec::new();
        let mut headers = Vec::new();
        let data_start = 52u32;
        for (i, &(_, kind, flags, contents, nobits)) in sections.iter().enumerate() {
            let offset = data_start + body.len() as u32;
            body.extend_from_slice(contents);
            let size = if kind == SHT_NOBITS {
                nobits
            } else {
                contents.len() as u32
            };
            headers.push((
                name_at[i],
                kind,
                flags,
                0x1000 * (i as u32 + 1),
                offset,
                size,
            ));
        }
        let names_offset = data_start + body.len() as u32;
        body.extend_from_slice(&names);
        headers.push((shstrtab_name, 3, 0, 0, names_offset, names.len() as u32));
        let mut v = vec![0u8; 52];
        v[..6].copy_from_slice(b"\x7fELF\x01\x01");
        let shoff = data_start + body.len() as u32;
        v[0x20..0x24].copy_from_slice(&shoff.to_le_bytes());
        v[0x2e..0x30].copy_from_slice(&40u16.to_le_bytes());
        v[0x30..0x32].copy_from_slice(&(headers.len() as u16).to_le_bytes());
        v[0x32..0x34].copy_from_slice(&(headers.len() as u16 - 1).to_le_bytes());
        v.extend_from_slice(&body);
        for (name, kind, flags, addr, offset, size) in headers {
            let mut h = [0u8; 40];
            for (at, value) in [
                (0, name),
                (4, kind),
                (8, flags),
                (12, addr),
                (16, offset),
                (20, size),
            ] {
                h[at..at + 4].copy_from_slice(&value.to_le_bytes());
            }
            v.extend_from_slice(&h);
        }
        v
    }

    #[test]
    fn names_sections_and_skips_reserved_ram() {
        let image = named_elf(&[
            (".text", 1, 0x6, &[0x01, 0x00], 0),
            (".data", 1, 0x3, &[1, 2, 3, 4], 0),
            (".bss", SHT_NOBITS, 0x3, &[], 8),
            (".stack", SHT_NOBITS, 0x3, &[], 16_000),
        ]);
        let names: Vec<String> = sections(&image)
            .unwrap()
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, [".text", ".data", ".bss", ".stack", ".shstrtab"]);
        assert_eq!(
            section_sizes(&image),
            Ok(Sizes {
                text: 2,
                rodata: 0,
                data: 4,
                bss: 8
            })
        );
    }

    #[test]
    fn finds_atomic_instructions_between_compressed_ones() {
        // c.nop; amoadd.w a0, a1, (a2) = 0x00b6252f; addi a0, a0, 1 = 0x00150513; c.nop;
        // lr.w a0, (a0) = 0x1005252f.
        let code: &[u8] = &[
            0x01, 0x00, 0x2f, 0x25, 0xb6, 0x00, 0x13, 0x05, 0x15, 0x00, 0x01, 0x00, 0x2f, 0x25,
            0x05, 0x10,
        ];
        let image = named_elf(&[
            (".text", 1, 0x6, code, 0),
            (".rodata", 1, 0x2, &[0x2f; 8], 0),
        ]);
        assert_eq!(atomic_instructions(&image), Ok(vec![0x1002, 0x100c]));
        // Without them: an addi, then compressed instructions (low bits 01) whose second byte
        // is 0x2f; and a `.rodata` full of 0x2f (not code) in the image above.
        let plain: &[u8] = &[0x13, 0x05, 0x15, 0x00, 0x01, 0x2f, 0x05, 0x2f];
        let image = named_elf(&[(".text", 1, 0x6, plain, 0)]);
        assert_eq!(atomic_instructions(&image), Ok(vec![]));
    }

    #[test]
    fn rejects_what_is_not_elf32_le() {
        assert!(section_sizes(b"\x7fELF\x02\x01").is_err());
        assert!(section_sizes(b"MZ").is_err());
        let mut truncated = elf(&[(1, 0x6, 10)]);
        truncated.truncate(60);
        assert!(section_sizes(&truncated).is_err());
    }

    #[test]
    fn differences() {
        let a = Sizes {
            text: 10,
            rodata: 5,
            data: 0,
            bss: 4,
        };
        let b = Sizes {
            text: 3,
            rodata: 5,
            data: 8,
            bss: 4,
        };
        assert_eq!(
            a.minus(&b),
            Sizes {
                text: 7,
                rodata: 0,
                data: -8,
                bss: 0
            }
        );
    }
}
