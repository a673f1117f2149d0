//! What a key does to a dialog that is edited in place: the dialog's key
//! handler takes it by `&mut` and says whether it stays open, closes, or
//! closes asking for something to be done with the model.

/// The outcome of a key in a dialog.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<T> {
    /// The dialog stays open (it may have changed).
    Keep,
    /// The dialog closes; nothing else happens.
    Close,
    /// The dialog asks for `T` to be carried out (and closes, unless the
    /// handler of `T` puts it back, e.g. to show an error).
    Act(T),
}

impl<T> Outcome<T> {
    /// Maps what is asked for.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Outcome<U> {
        match self {
            Outcome::Keep => Outcome::Keep,
            Outcome::Close => Outcome::Close,
            Outcome::Act(t) => Outcome::Act(f(t)),
        }
    }
}
