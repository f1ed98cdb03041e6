pub mod assign;
pub mod sim;
pub mod java;
