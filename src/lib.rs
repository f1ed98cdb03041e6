pub mod assign;
pub mod java;
