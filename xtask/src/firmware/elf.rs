//! Reading ELF32 files: section sizes for `cargo xtask size`, and a scan for RISC-V atomic
//! instructions.

use object::elf::{SHF_ALLOC, SHF_EXECINSTR, SHF_WRITE};
use object::{Object, ObjectSection, SectionFlags, SectionKind};

use crate::util::Result;

/// The allocated section sizes of an ELF, as `llvm-size` counts them: text (executable code),
/// rodata (other read-only sections, the vector table included), data (writable ones with
/// contents: in flash and in RAM), flash (text + rodata + data) and bss (writable ones without
/// contents, `SHT_NOBITS`: RAM only). riscv-rt's `.stack` and `.heap` are not counted: they
/// reserve whatever RAM is left.
pub(super) fn section_sizes(elf: &[u8]) -> Result<[i64; 5]> {
    let mut sizes = [0; 5];
    for s in object::File::parse(elf)?.sections() {
        let (SectionFlags::Elf { sh_flags }, Ok(name)) = (s.flags(), s.name()) else {
            continue;
        };
        let flag = |f: u32| sh_flags & u64::from(f) != 0;
        if flag(SHF_ALLOC) && name != ".stack" && name != ".heap" {
            let slot = match (flag(SHF_EXECINSTR), flag(SHF_WRITE)) {
                (true, _) => 0,
                (false, false) => 1,
                _ if s.kind() == SectionKind::UninitializedData => 4,
                _ => 2,
            };
            sizes[slot] += s.size() as i64;
        }
    }
    sizes[3] = sizes[0] + sizes[1] + sizes[2];
    Ok(sizes)
}

/// The addresses of RISC-V A-extension instructions (major opcode `AMO`, `0101111`: `lr`,
/// `sc`, `amo*`) in the executable sections of a riscv32 ELF, decoding 16- and 32-bit
/// instructions in sequence (the low two bits tell the length).
pub(super) fn atomic_instructions(elf: &[u8]) -> Result<Vec<u64>> {
    let mut found = Vec::new();
    let file = object::File::parse(elf)?;
    for s in file.sections().filter(|s| s.kind() == SectionKind::Text) {
        let (code, mut at) = (s.data()?, 0);
        while let Some(&low) = code.get(at) {
            let long = low & 0b11 == 0b11; // else a compressed instruction
            if long && low & 0x7f == 0b010_1111 && at + 4 <= code.len() {
                found.push(s.address() + at as u64);
            }
            at += if long { 4 } else { 2 };
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use object::elf::SHT_NOBITS;

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
        assert_eq!(section_sizes(&image).ok(), Some([1000, 200, 64, 1264, 32]));
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
            ("", 0, 0, &[], 0),
            (".text", 1, 0x6, &[0x01, 0x00], 0),
            (".data", 1, 0x3, &[1, 2, 3, 4], 0),
            (".bss", SHT_NOBITS, 0x3, &[], 8),
            (".stack", SHT_NOBITS, 0x3, &[], 16_000),
        ]);
        let file = object::File::parse(&image[..]).unwrap();
        let names: Vec<&str> = file.sections().filter_map(|s| s.name().ok()).collect();
        assert_eq!(names, [".text", ".data", ".bss", ".stack", ".shstrtab"]);
        assert_eq!(section_sizes(&image).ok(), Some([2, 0, 4, 6, 8]));
    }

    #[test]
    fn finds_atomic_instructions_between_compressed_ones() {
        // c.nop; amoadd.w a0, a1, (a2) = 0x00b6252f; addi a0, a0, 1 = 0x00150513; c.nop;
        // lr.w a0, (a0) = 0x1005252f.
        let code: &[u8] = &[
            0x01, 0x00, 0x2f, 0x25, 0xb6, 0x00, 0x13, 0x05, 0x15, 0x00, 0x01, 0x00, 0x2f, 0x25,
            0x05, 0x10,
        ];
        // A real ELF's section 0 is the null section (`object` skips it).
        let image = named_elf(&[
            ("", 0, 0, &[], 0),
            (".text", 1, 0x6, code, 0),
            (".rodata", 1, 0x2, &[0x2f; 8], 0),
        ]);
        assert_eq!(atomic_instructions(&image).ok(), Some(vec![0x2002, 0x200c]));
        // Without them: an addi, then compressed instructions (low bits 01) whose second byte
        // is 0x2f; and a `.rodata` full of 0x2f (not code) in the image above.
        let plain: &[u8] = &[0x13, 0x05, 0x15, 0x00, 0x01, 0x2f, 0x05, 0x2f];
        let image = named_elf(&[("", 0, 0, &[], 0), (".text", 1, 0x6, plain, 0)]);
        assert_eq!(atomic_instructions(&image).ok(), Some(vec![]));
    }

    #[test]
    fn rejects_what_is_not_elf32_le() {
        assert!(section_sizes(b"\x7fELF\x02\x01").is_err());
        assert!(section_sizes(b"MZ").is_err());
        let mut truncated = named_elf(&[(".text", 1, 0x6, &[0; 10], 0)]);
        truncated.truncate(80);
        assert!(section_sizes(&truncated).is_err());
    }
}
