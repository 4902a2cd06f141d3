//! Fields that moved: a struct of the file schema lists the fields an older layout had in it
//! and where they live now ([`Moves::MOVED`]); reading one of them there is a parse error that
//! names the new place, at the field's line and column:
//!
//! `` `stride` moved: write it in `orbit.stride` (the file's one block of stride, Newton and
//! eigenvalue settings) ``
//!
//! [`Checked<T>`] deserializes `T` as derived, watching the names of its fields as the parser
//! reads them: a moved name fails before its value is read, so the position is the field's.
//! Only the struct's own fields are watched (a nested struct lists its own).

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{forward_to_deserialize_any, Deserialize};
use std::fmt;

/// A struct of the file schema with fields that moved out of it.
pub(crate) trait Moves {
    /// `(old field, new place)`: the field's path from the top of the file.
    const MOVED: &'static [(&'static str, &'static str)];
}

/// The orbit settings, written once per file in `orbit` (moved out of the top level, the
/// continuation section and its settings, and the orbit diagram's settings).
pub(crate) const ORBIT_SETTINGS: &[(&str, &str)] = &[
    ("stride", "orbit.stride"),
    ("newton", "orbit.newton"),
    ("eigen", "orbit.eigen"),
];

/// The error for a moved field.
fn moved_error<E: de::Error>(field: &str, to: &str) -> E {
    if !to.starts_with("orbit.") {
        // Not moved but derived: `to` says from what.
        return E::custom(format_args!("`{field}` is not written in a file: {to}"));
    }
    E::custom(format_args!(
        "`{field}` moved: write it in `{to}` (the file's one block of stride, Newton and \
         eigenvalue settings, used by everything the file computes)"
    ))
}

/// `T` read with its moved fields refused ([`Moves`]).
pub(crate) struct Checked<T>(pub T);

impl<'de, T: Deserialize<'de> + Moves> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(Watch {
            inner: d,
            moved: T::MOVED,
        })
        .map(Checked)
    }
}

/// For `#[serde(deserialize_with)]` on a field of type `T`.
pub(crate) fn checked<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Moves,
{
    Checked::<T>::deserialize(d).map(|c| c.0)
}

/// For `#[serde(deserialize_with)]` on a field of type `Option<T>`.
pub(crate) fn checked_option<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Moves,
{
    Option::<Checked<T>>::deserialize(d).map(|c| c.map(|c| c.0))
}

/// For `#[serde(deserialize_with)]` on a field of type `Vec<T>`.
pub(crate) fn checked_vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Moves,
{
    Vec::<Checked<T>>::deserialize(d).map(|v| v.into_iter().map(|c| c.0).collect())
}

/// The deserializer of a struct whose field names are watched.
struct Watch<D> {
    inner: D,
    moved: &'static [(&'static str, &'static str)],
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Watch<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let moved = self.moved;
        self.inner.deserialize_struct(
            name,
            fields,
            WatchVisitor {
                inner: visitor,
                moved,
            },
        )
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// The struct's visitor, given the field names through [`WatchMap`].
struct WatchVisitor<V> {
    inner: V,
    moved: &'static [(&'static str, &'static str)],
}

impl<'de, V: Visitor<'de>> Visitor<'de> for WatchVisitor<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.inner.expecting(f)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.inner.visit_map(WatchMap {
            inner: map,
            moved: self.moved,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.inner.visit_seq(seq)
    }
}

/// The struct's fields, each name checked before it reaches the struct.
struct WatchMap<A> {
    inner: A,
    moved: &'static [(&'static str, &'static str)],
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for WatchMap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.inner.next_key_seed(KeySeed {
            inner: seed,
            moved: self.moved,
        })
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.inner.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// A field name, checked.
struct KeySeed<K> {
    inner: K,
    moved: &'static [(&'static str, &'static str)],
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K::Value, D::Error> {
        self.inner.deserialize(KeyDeserializer {
            inner: d,
            moved: self.moved,
        })
    }
}

/// The deserializer of a field name.
struct KeyDeserializer<D> {
    inner: D,
    moved: &'static [(&'static str, &'static str)],
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for KeyDeserializer<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let moved = self.moved;
        self.inner.deserialize_any(KeyVisitor {
            inner: visitor,
            moved,
        })
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let moved = self.moved;
        self.inner.deserialize_identifier(KeyVisitor {
            inner: visitor,
            moved,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        ignored_any
    }
}

/// Sees the field name: a moved one is an error naming its new place.
struct KeyVisitor<V> {
    inner: V,
    moved: &'static [(&'static str, &'static str)],
}

impl<V> KeyVisitor<V> {
    fn check<E: de::Error>(&self, name: &str) -> Result<(), E> {
        match self.moved.iter().find(|(old, _)| *old == name) {
            Some((old, to)) => Err(moved_error(old, to)),
            None => Ok(()),
        }
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for KeyVisitor<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.inner.expecting(f)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.check(v)?;
        self.inner.visit_str(v)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.check(v)?;
        self.inner.visit_borrowed_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.check(&v)?;
        self.inner.visit_string(v)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<V::Value, E> {
        self.inner.visit_bytes(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.inner.visit_u64(v)
    }
}

#[cfg(test)]
mod tests {
    use crate::{parse_model_file, FileError};

    /// The error of `text`: line, column, message.
    fn error(text: &str) -> (usize, usize, String) {
        match parse_model_file(text, "t.ron") {
            Err(FileError::Parse {
                line,
                column,
                message,
                ..
            }) => (line, column, message),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    const HEAD: &str = "(\n  model: SimplestWalker(gamma: 0.009),\n";
    const BRANCH: &str = "(label: \"a\", from: 0.009, to: 0.01, guess: [0.2, -0.2])";

    /// Every place an older layout had an orbit setting: the error is at the field's line and
    /// column and names its place in `orbit`.
    #[test]
    fn an_old_field_in_an_old_place_names_its_new_place() {
        let cases = [
            // The top level (the first layout).
            (format!("{HEAD}  stride: (t_max: 20.0),\n)"), (3, 3), "stride"),
            (
                format!("{HEAD}  orbit: (),\n  newton: (ftol: 1e-12),\n)"),
                (4, 3),
                "newton",
            ),
            (format!("{HEAD}  eigen: Native,\n)"), (3, 3), "eigen"),
            // The continuation's settings (the layout with a copy per script).
            (
                format!(
                    "{HEAD}  continuation: (\n    param: \"gamma\",\n    branches: [{BRANCH}],\n    \
                     settings: (step: 1e-3,\n      stride: (t_max: 20.0)),\n  ),\n)"
                ),
                (7, 7),
                "stride",
            ),
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\", branches: [{BRANCH}],\n    \
                     settings: (eigen: Native)),\n)"
                ),
                (4, 16),
                "eigen",
            ),
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\", branches: [{BRANCH}],\n    \
                     settings: (newton: (max_iters: 3))),\n)"
                ),
                (4, 16),
                "newton",
            ),
            // A branch.
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\", branches: [(label: \"a\", \
                     from: 0.009, to: 0.01,\n    guess: [0.2, -0.2], stride: (t_max: 5.0))]),\n)"
                ),
                (4, 25),
                "stride",
            ),
            // The continuation section itself.
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\",\n    newton: (max_iters: 3),\n    \
                     branches: [{BRANCH}]),\n)"
                ),
                (4, 5),
                "newton",
            ),
            // The orbit diagram's settings (its own stride, before the file had one).
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\", branches: [],\n    orbit_diagram: \
                     (from: 0.01, to: 0.02, count: 2, start: [0, 0, 0, 0],\n      \
                     settings: (keep: 2, stride: (t_max: 5.0)))),\n)"
                ),
                (5, 27),
                "stride",
            ),
            (
                format!(
                    "{HEAD}  continuation: (param: \"gamma\", branches: [],\n    orbit_diagram: \
                     (from: 0.01, to: 0.02, count: 2, start: [0, 0, 0, 0],\n      \
                     stride: (t_max: 5.0))),\n)"
                ),
                (5, 7),
                "stride",
            ),
        ];
        for (text, at, field) in cases {
            let (line, column, message) = error(&text);
            assert!(
                message.starts_with(&format!("`{field}` moved: write it in `orbit.{field}`")),
                "{text}\n{message}"
            );
            assert_eq!((line, column), at, "{text}\n{message}");
        }
    }

    /// A branch's direction and parameter bounds follow from its `from` and `to`: written in
    /// the shared settings they are refused where written, saying so.
    #[test]
    fn direction_and_bounds_are_not_settings_of_a_file() {
        for field in ["direction", "p_min", "p_max"] {
            let text = format!(
                "{HEAD}  continuation: (param: \"gamma\", branches: [{BRANCH}],\n    \
                 settings: (step: 1e-3, {field}: 0.0)),\n)"
            );
            let (line, column, message) = error(&text);
            assert!(
                message.starts_with(&format!(
                    "`{field}` is not written in a file: each branch's"
                )),
                "{message}"
            );
            assert_eq!((line, column), (4, 28), "{text}\n{message}");
        }
    }

    /// Other unknown fields keep the parser's message (with the fields it expected), and the
    /// watch is of the struct's own fields only: `newton` inside `orbit.stride` is unknown
    /// there, not moved.
    #[test]
    fn other_unknown_fields_are_unchanged() {
        let (_, _, message) = error(&format!("{HEAD}  orbit: (strid: ()),\n)"));
        assert!(
            message.contains("strid") && message.contains("stride"),
            "{message}"
        );
        let (_, _, message) = error(&format!("{HEAD}  orbit: (stride: (newton: ())),\n)"));
        assert!(!message.contains("moved"), "{message}");
        let (line, _, message) = error(&format!(
            "{HEAD}  continuation: (param: \"gamma\", branches: [{BRANCH}],\n    \
             settings: (stepp: 1e-3)),\n)"
        ));
        assert!(
            line == 4 && message.contains("stepp") && message.contains("max_step"),
            "{message}"
        );
    }

    /// Where nothing moved, the sections read as before: the settings, the diagram and its
    /// settings (without `Some(..)`), defaults where absent.
    #[test]
    fn the_sections_read_with_the_watch() {
        let file = parse_model_file(
            &format!(
                "{HEAD}  continuation: (param: \"gamma\", branches: [{BRANCH}],\n    \
                 settings: (step: 1e-3, predictor: Natural),\n    orbit_diagram: \
                 (from: 0.01, to: 0.02, count: 2, start: [0, 0, 0, 0],\n      \
                 settings: (keep: 2, component: 1))),\n)"
            ),
            "t.ron",
        )
        .unwrap();
        let spec = file.script().unwrap();
        assert_eq!(spec.settings.step, 1e-3);
        assert_eq!(
            spec.settings.predictor,
            saltation_continuation::Predictor::Natural
        );
        let d = spec.orbit_diagram.unwrap();
        assert_eq!((d.count, d.settings.keep, d.settings.component), (2, 2, 1));
        assert_eq!(d.settings.transient, 200);
        let file = parse_model_file(&format!("{HEAD})"), "t.ron").unwrap();
        assert_eq!(file.continuation, None);
    }
}
