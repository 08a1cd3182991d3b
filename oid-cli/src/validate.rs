//! `oid validate`: report every input that is not an id.

use std::io::BufRead;

use crate::cli::ValidateArgs;
use crate::error::{Error, Status};
use crate::input::{self, Row, Sources};
use crate::progress::Progress;
use crate::stderr::Messages;

/// Runs `oid validate`: each invalid input is reported on `err`, then a summary; nothing goes
/// to standard output. The status says whether all inputs were valid.
pub(crate) fn run(
    args: &ValidateArgs,
    stdin: impl BufRead,
    err: &mut impl Messages,
) -> Result<Status, Error> {
    let mut invalid = 0_u64;
    let mut nulls = 0_u64;
    let sources = Sources {
        args: &args.ids,
        files: &args.files,
        read: &args.read,
    };
    let seen = input::for_each(sources, stdin, err, &Progress::none(), |row, err| {
        match row {
            Row::Item(item) => {
                if let Err(reason) = item.id {
                    invalid += 1;
                    input::report(&mut std::io::sink(), err, &item, &reason)?;
                }
            }
            Row::Null(_) => nulls += 1,
        }
        Ok(())
    })?;
    if seen.items == 0 && seen.read_stdin && seen.unreadable == 0 {
        let _ = writeln!(
            err,
            "oid: standard input is empty or closed: no ids to check"
        );
    }
    let valid = seen.items - invalid - nulls;
    let _ = if nulls == 0 {
        writeln!(err, "{valid} valid, {invalid} invalid")
    } else {
        writeln!(err, "{valid} valid, {invalid} invalid, {nulls} null")
    };
    Ok(Status::of(invalid, seen.unreadable))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validate(ids: &[&str], stdin: &[u8]) -> (Status, String) {
        let args = ValidateArgs {
            ids: ids.iter().map(std::ffi::OsString::from).collect(),
            files: Vec::new(),
            read: crate::cli::ReadArgs::default(),
        };
        let mut err = Vec::new();
        let status = run(&args, stdin, &mut err).unwrap();
        (status, String::from_utf8(err).unwrap())
    }

    #[test]
    fn all_valid_is_ok_with_a_summary() {
        let (status, err) = validate(
            &[],
            b"507f1f77bcf86cd799439011\nObjectId('507F1F77BCF86CD799439011')\n",
        );
        assert_eq!((status, err.as_str()), (Status::Ok, "2 valid, 0 invalid\n"));
    }

    #[test]
    fn each_invalid_input_with_its_line_and_reason() {
        let (status, err) = validate(
            &[],
            b"507f1f77bcf86cd799439011\n507f1f77bcf86cd79943901g\n\nshort\n\xff\n",
        );
        assert_eq!(status, Status::Invalid);
        assert_eq!(
            err,
            "\
oid: line 2: \"507f1f77bcf86cd79943901g\": invalid character 'g' at index 23: expected a hex digit
oid: line 4: \"short\": invalid length: expected 24 hex characters, found 5
oid: line 5: \"\u{fffd}\": not valid UTF-8
1 valid, 3 invalid
"
        );
    }

    #[test]
    fn arguments_are_numbered() {
        let (status, err) = validate(&["507f1f77bcf86cd799439011", ""], b"");
        assert_eq!(status, Status::Invalid);
        assert_eq!(
            err,
            "oid: argument 2: \"\": invalid length: expected 24 hex characters, found 0\n\
             1 valid, 1 invalid\n"
        );
    }

    #[test]
    fn empty_stdin_is_said() {
        let (status, err) = validate(&[], b"");
        assert_eq!(status, Status::Ok);
        assert_eq!(
            err,
            "oid: standard input is empty or closed: no ids to check\n0 valid, 0 invalid\n"
        );
    }
}
