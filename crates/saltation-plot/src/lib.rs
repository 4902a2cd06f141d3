//! saltation-plot (under construction)
