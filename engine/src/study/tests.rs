//! Unit tests of the study modules, one file each.

mod key;
mod quiz;
mod rating;
mod repertoire;
mod schedule;
mod store;
