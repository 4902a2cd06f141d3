//! The error of loading an equation model: what is wrong and its place in the model (the field,
//! the item, the character inside the expression), carried through serde's string-only errors
//! so that a file reader can point at the text.

use saltation_equations::ExprError;
use std::fmt;

/// Separates the fields of a [`LoadError`] carried through serde's string-only errors.
const SEP: char = '\u{1f}';

/// Where in the model's text a mistake is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// Field path inside the model, e.g. `modes[0].flow` or `guards[1].when`.
    pub path: String,
    /// Item of the list at `path`, if the field is a list.
    pub item: Option<usize>,
    /// Which string of the item (0 for a plain string, 1 for the expression of a
    /// `(name, expression)` pair).
    pub nth: usize,
}

impl Place {
    pub(super) fn field(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            item: None,
            nth: 0,
        }
    }
    pub(super) fn item(path: impl Into<String>, item: usize, nth: usize) -> Self {
        Self {
            path: path.into(),
            item: Some(item),
            nth,
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.item {
            Some(k) => write!(f, "{}[{k}]", self.path),
            None => f.write_str(&self.path),
        }
    }
}

/// A mistake in an equation model, found when it is loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadError {
    /// Where.
    pub place: Place,
    /// Character offset inside the expression, for errors in an expression.
    pub offset: Option<usize>,
    /// What is wrong (one line).
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)?;
        if let Some(o) = self.offset {
            write!(f, " (at character {} of the expression)", o + 1)?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadError {}

impl LoadError {
    pub(super) fn at(place: Place, message: impl Into<String>) -> Self {
        Self {
            place,
            offset: None,
            message: message.into(),
        }
    }

    pub(super) fn expr(place: Place, e: &ExprError) -> Self {
        Self {
            place,
            offset: Some(e.offset),
            message: e.message.clone(),
        }
    }

    /// The error as one string that [`LoadError::from_serde_message`] reads back (serde's
    /// errors carry only a message).
    pub fn to_serde_message(&self) -> String {
        let opt = |v: Option<usize>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
        format!(
            "{self}{SEP}{}{SEP}{}{SEP}{}{SEP}{}{SEP}{}",
            self.message,
            self.place.path,
            opt(self.place.item),
            self.place.nth,
            opt(self.offset)
        )
    }

    /// Reads back a message made by [`LoadError::to_serde_message`]; `None` for any other.
    pub fn from_serde_message(msg: &str) -> Option<LoadError> {
        let parts: Vec<&str> = msg.split(SEP).collect();
        let [_, message, path, item, nth, offset] = parts[..] else {
            return None;
        };
        let opt = |s: &str| {
            if s == "-" {
                Some(None)
            } else {
                s.parse().ok().map(Some)
            }
        };
        Some(LoadError {
            place: Place {
                path: path.to_string(),
                item: opt(item)?,
                nth: nth.parse().ok()?,
            },
            offset: opt(offset)?,
            message: message.to_string(),
        })
    }
}
