//! Unit tests of the study modules, one file each.

mod key;
mod quiz;
mod rating;
mod schedule;
mod store;
