//! Typed arena indices.
//!
//! Every IR entity lives in an [`Arena`] and is referred to by an [`Id`]: a `u32`
//! with a niche (so `Option<Id<T>>` is as small as `Id<T>`) and a phantom type that
//! keeps instruction ids from being used as computation ids. Analyses keep side
//! tables indexed by id instead of pointers, so the IR never needs `Rc<RefCell<_>>`.

use std::fmt;
use std::marker::PhantomData;
use std::num::NonZeroU32;

/// Index of a `T` in an [`Arena<T>`].
pub struct Id<T> {
    raw: NonZeroU32,
    _marker: PhantomData<fn() -> T>,
}

impl<T> Id<T> {
    /// The id of slot `index`.
    pub fn from_index(index: usize) -> Self {
        let raw = u32::try_from(index + 1).expect("arena index exceeds u32");
        Id { raw: NonZeroU32::new(raw).expect("non-zero by construction"), _marker: PhantomData }
    }

    /// The slot this id names.
    pub fn index(self) -> usize {
        (self.raw.get() - 1) as usize
    }
}

impl<T> Clone for Id<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Id<T> {}
impl<T> PartialEq for Id<T> {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}
impl<T> Eq for Id<T> {}
impl<T> PartialOrd for Id<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Id<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.raw.cmp(&other.raw)
    }
}
impl<T> std::hash::Hash for Id<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.raw.hash(state)
    }
}
impl<T> fmt::Debug for Id<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.index())
    }
}

/// Storage for entities of one kind. Slots can be vacated (an instruction removed
/// by DCE); ids of vacated slots are never reused until [`Arena::compact`] renumbers.
#[derive(Clone)]
pub struct Arena<T> {
    slots: Vec<Option<T>>,
    live: usize,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { slots: Vec::new(), live: 0 }
    }
}

impl<T: PartialEq> PartialEq for Arena<T> {
    fn eq(&self, other: &Self) -> bool {
        self.slots == other.slots
    }
}

impl<T: fmt::Debug> fmt::Debug for Arena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<T> Arena<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn alloc(&mut self, value: T) -> Id<T> {
        self.slots.push(Some(value));
        self.live += 1;
        Id::from_index(self.slots.len() - 1)
    }

    /// Number of live entities.
    pub fn len(&self) -> usize {
        self.live
    }

    /// One past the largest id ever handed out; side tables are sized by this.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    pub fn contains(&self, id: Id<T>) -> bool {
        matches!(self.slots.get(id.index()), Some(Some(_)))
    }

    pub fn get(&self, id: Id<T>) -> Option<&T> {
        self.slots.get(id.index()).and_then(Option::as_ref)
    }

    pub fn get_mut(&mut self, id: Id<T>) -> Option<&mut T> {
        self.slots.get_mut(id.index()).and_then(Option::as_mut)
    }

    /// Vacates a slot, returning what was there.
    pub fn remove(&mut self, id: Id<T>) -> Option<T> {
        let taken = self.slots.get_mut(id.index()).and_then(Option::take);
        if taken.is_some() {
            self.live -= 1;
        }
        taken
    }

    /// Live entities in id order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (Id<T>, &T)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| s.as_ref().map(|v| (Id::from_index(i), v)))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Id<T>, &mut T)> + '_ {
        self.slots.iter_mut().enumerate().filter_map(|(i, s)| s.as_mut().map(|v| (Id::from_index(i), v)))
    }

    pub fn ids(&self) -> impl DoubleEndedIterator<Item = Id<T>> + '_ {
        self.iter().map(|(id, _)| id)
    }

    /// Removes vacated slots, keeping live entities in order. Returns the map from
    /// old ids to new ones (`None` for removed slots) so callers can rewrite references.
    pub fn compact(&mut self) -> Vec<Option<Id<T>>> {
        let mut remap = Vec::with_capacity(self.slots.len());
        let mut next = 0;
        for slot in &self.slots {
            if slot.is_some() {
                remap.push(Some(Id::from_index(next)));
                next += 1;
            } else {
                remap.push(None);
            }
        }
        self.slots.retain(Option::is_some);
        remap
    }
}

impl<T> std::ops::Index<Id<T>> for Arena<T> {
    type Output = T;
    fn index(&self, id: Id<T>) -> &T {
        match self.get(id) {
            Some(v) => v,
            None => panic!("dangling id {id:?}: a pass kept a reference to a removed entity"),
        }
    }
}

impl<T> std::ops::IndexMut<Id<T>> for Arena<T> {
    fn index_mut(&mut self, id: Id<T>) -> &mut T {
        match self.get_mut(id) {
            Some(v) => v,
            None => panic!("dangling id {id:?}: a pass kept a reference to a removed entity"),
        }
    }
}

/// A dense side table keyed by id, for analyses.
#[derive(Clone, Debug)]
pub struct SecondaryMap<K, V> {
    values: Vec<V>,
    _marker: PhantomData<fn() -> K>,
}

impl<T, V: Clone> SecondaryMap<Id<T>, V> {
    pub fn with_default(capacity: usize, default: V) -> Self {
        SecondaryMap { values: vec![default; capacity], _marker: PhantomData }
    }
}

impl<T, V> std::ops::Index<Id<T>> for SecondaryMap<Id<T>, V> {
    type Output = V;
    fn index(&self, id: Id<T>) -> &V {
        &self.values[id.index()]
    }
}

impl<T, V> std::ops::IndexMut<Id<T>> for SecondaryMap<Id<T>, V> {
    fn index_mut(&mut self, id: Id<T>) -> &mut V {
        &mut self.values[id.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_id_is_free() {
        assert_eq!(std::mem::size_of::<Option<Id<u8>>>(), 4);
    }

    #[test]
    fn remove_and_compact_renumber() {
        let mut a = Arena::new();
        let x = a.alloc("x");
        let y = a.alloc("y");
        let z = a.alloc("z");
        assert_eq!(a.remove(y), Some("y"));
        assert_eq!(a.len(), 2);
        assert!(!a.contains(y));
        let remap = a.compact();
        assert_eq!(remap[x.index()], Some(Id::from_index(0)));
        assert_eq!(remap[y.index()], None);
        assert_eq!(remap[z.index()], Some(Id::from_index(1)));
        assert_eq!(a[Id::from_index(1)], "z");
    }
}
