//! `oid validate`: report every input that is not an id.

use std::io::{BufRead, Write};

use crate::cli::ValidateArgs;
use crate::error::{Error, Status};
use crate::input;

/// Runs `oid validate`: each invalid input is reported on `err`; nothing goes to standard
/// output. The status says whether all inputs were valid.
pub(crate) fn run(
    args: &ValidateArgs,
    stdin: impl BufRead,
    err: &mut impl Write,
) -> Result<Status, Error> {
    let mut invalid = 0_u64;
    input::for_each(&args.ids, stdin, |item| {
        if let Err(reason) = item.id {
            invalid += 1;
            input::report(&mut std::io::sink(), err, &item, &reason)?;
        }
        Ok(())
    })?;
    Ok(Status::from_invalid(invalid))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn validate(ids: &[&str], stdin: &[u8]) -> (Status, String) {
        let args = ValidateArgs {
            ids: ids.iter().map(|s| (*s).to_owned()).collect(),
        };
        let mut err = Vec::new();
        let status = run(&args, stdin, &mut err).unwrap();
        (status, String::from_utf8(err).unwrap())
    }

    #[test]
    fn all_valid_is_ok_and_silent() {
        let (status, err) = validate(&[], b"507f1f77bcf86cd799439011\n507F1F77BCF86CD799439011\n");
        assert_eq!((status, err.as_str()), (Status::Ok, ""));
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
"
        );
    }

    #[test]
    fn arguments_are_numbered() {
        let (status, err) = validate(&["507f1f77bcf86cd799439011", ""], b"");
        assert_eq!(status, Status::Invalid);
        assert_eq!(
            err,
            "oid: argument 2: \"\": invalid length: expected 24 hex characters, found 0\n"
        );
    }
}
