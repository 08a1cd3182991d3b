//! `rkyv` (feature `rkyv`) for [`ObjectId`](crate::ObjectId), forwarding to oid-core's impl: an id
//! is archived as `oid_core::ArchivedObjectId` (re-exported here as
//! [`ArchivedObjectId`](crate::ArchivedObjectId)), its 12 bytes, so archives of either type read
//! each other; rkyv's checked access (`bytecheck`) validates them. `bson::oid::ObjectId` has no
//! rkyv support.

use rkyv::rancor::Fallible;
use rkyv::{Archive, Deserialize, Place, Serialize};

use crate::{ArchivedObjectId, ObjectId};

impl Archive for ObjectId {
    type Archived = ArchivedObjectId;
    type Resolver = <oid_core::ObjectId as Archive>::Resolver;

    fn resolve(&self, resolver: Self::Resolver, out: Place<Self::Archived>) {
        oid_core::ObjectId::from(*self).resolve(resolver, out);
    }
}

impl<S: Fallible + ?Sized> Serialize<S> for ObjectId {
    fn serialize(&self, serializer: &mut S) -> Result<Self::Resolver, S::Error> {
        oid_core::ObjectId::from(*self).serialize(serializer)
    }
}

impl<D: Fallible + ?Sized> Deserialize<ObjectId, D> for ArchivedObjectId {
    fn deserialize(&self, _: &mut D) -> Result<ObjectId, D::Error> {
        Ok(ObjectId::from(self.to_object_id()))
    }
}

impl PartialEq<ObjectId> for ArchivedObjectId {
    fn eq(&self, other: &ObjectId) -> bool {
        *self == oid_core::ObjectId::from(*other)
    }
}

impl PartialEq<ArchivedObjectId> for ObjectId {
    fn eq(&self, other: &ArchivedObjectId) -> bool {
        other == self
    }
}

impl From<&ArchivedObjectId> for ObjectId {
    fn from(archived: &ArchivedObjectId) -> ObjectId {
        ObjectId::from(archived.to_object_id())
    }
}
