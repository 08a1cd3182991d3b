//! Reading ELF32 files: section sizes for `cargo xtask size`, and a scan for RISC-V atomic
//! instructions.

use std::path::Path;

use object::LittleEndian;
use object::elf::{FileHeader32, SHF_ALLOC, SHF_EXECINSTR, SHF_WRITE, SHT_NOBITS};
use object::read::elf::{FileHeader, SectionHeader};

use crate::util::Result;

const LE: LittleEndian = LittleEndian;

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

/// One section of an ELF32 file: its name (empty without a name table) and header fields.
struct Section<'a> {
    name: String,
    kind: u32,
    flags: u32,
    addr: u32,
    size: u32,
    /// The bytes in the file (none for `SHT_NOBITS`).
    data: &'a [u8],
}

/// The sections of a little-endian ELF32 file (every target measured here), read by `object`.
fn sections(elf: &[u8]) -> std::result::Result<Vec<Section<'_>>, String> {
    let header = FileHeader32::<LittleEndian>::parse(elf).map_err(|e| e.to_string())?;
    let table = header.sections(LE, elf).map_err(|e| e.to_string())?;
    let name = |s| table.section_name(LE, s).map(String::from_utf8_lossy);
    table
        .iter()
        .map(|s| {
            let name = name(s).unwrap_or_default().into_owned();
            Ok(Section {
                data: s
                    .data(LE, elf)
                    .map_err(|e| format!("section {name}: {e}"))?,
                kind: s.sh_type(LE),
                flags: s.sh_flags(LE),
                addr: s.sh_addr(LE),
                size: s.sh_size(LE),
                name,
            })
        })
        .collect()
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
        let code = s.data;
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

    #[test]
    fn sums_sections_by_kind() {
        // One non-allocated section (.debug_info) that must not count; a null section first.
        let image = named_elf(&[
            ("", 0, 0, &[], 0),
            (".text", 1, 0x6, &[0; 1000], 0),        // alloc + exec
            (".vector_table", 1, 0x2, &[0; 192], 0), // alloc
            (".rodata", 1, 0x2, &[0; 8], 0),
            (".data", 1, 0x3, &[0; 64], 0), // alloc + write
            (".bss", SHT_NOBITS, 0x3, &[], 32),
            (".debug_info", 1, 0x0, &[0; 5000], 0),
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
        v[..7].copy_from_slice(b"\x7fELF\x01\x01\x01");
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
        let mut truncated = named_elf(&[(".text", 1, 0x6, &[0; 10], 0)]);
        truncated.truncate(80);
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
