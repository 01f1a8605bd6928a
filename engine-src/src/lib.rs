//! Reference model of the rules of Chess Attack.
