//! Text labels next to point markers, placed so that they do not overlap (internal).
//!
//! A greedy placement in pixel coordinates (x to the right, y downwards, origin at the plot's
//! top-left corner). Each label, in the order given, tries candidate boxes around its marker —
//! the eight compass positions at the marker's edge, then the same again one and two label
//! heights further out (joined to the marker by a leader line) — and takes the candidate of
//! least cost
//!
//! cost = 10⁶ · (area overlapping labels already placed, markers and boxes to avoid, or outside
//! the plot) + 100 · (whether its leader line crosses a placed label or another marker, or the
//! box a placed leader line) + (curve cells under the box) + 6 · ring,
//!
//! with ties going to the earlier candidate. Curve cells are the `CELL` × `CELL` pixel squares
//! that curve samples fall in, counted once each, so the cost of covering a curve is its drawn
//! length whatever its sampling. A label therefore only overlaps another one when every
//! candidate does (a cluster too dense for the room), and moves one ring out rather than cover
//! more than about 24 pixels of curve.

use std::collections::HashSet;

/// Side of the pixel squares in which curve coverage is counted.
const CELL: f64 = 4.0;

/// Cost of moving a label one ring further from its marker, in curve cells.
const RING_COST: f64 = 6.0;

/// Cost of a leader line through a placed label or another marker, in curve cells.
const CROSSING_COST: f64 = 100.0;

/// An axis-aligned box in pixels: `x0 ≤ x1`, `y0 ≤ y1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    /// The area shared with `o` (0 if disjoint or only touching).
    pub fn overlap(&self, o: &Rect) -> f64 {
        let w = self.x1.min(o.x1) - self.x0.max(o.x0);
        let h = self.y1.min(o.y1) - self.y0.max(o.y0);
        if w > 0.0 && h > 0.0 {
            w * h
        } else {
            0.0
        }
    }

    /// Whether `p` lies inside (borders included).
    pub fn contains(&self, p: (f64, f64)) -> bool {
        (self.x0..=self.x1).contains(&p.0) && (self.y0..=self.y1).contains(&p.1)
    }

    fn area(&self) -> f64 {
        (self.x1 - self.x0).max(0.0) * (self.y1 - self.y0).max(0.0)
    }

    /// The point of the box nearest to `p`.
    pub fn nearest(&self, p: (f64, f64)) -> (f64, f64) {
        (p.0.clamp(self.x0, self.x1), p.1.clamp(self.y0, self.y1))
    }
}

/// What the labels are placed among.
pub(crate) struct Scene<'a> {
    /// Size of the plot in pixels; labels should stay inside `[0, w] × [0, h]`.
    pub bounds: (f64, f64),
    /// Centres of every marker (labelled or not), in pixels; their boxes are kept free of text.
    pub markers: &'a [(f64, f64)],
    /// Half-size of a marker in pixels.
    pub marker_r: f64,
    /// Boxes no label should cover (e.g. the legend).
    pub avoid: &'a [Rect],
    /// Samples of the drawn curves, in pixels: a label covering fewer is preferred.
    pub lines: &'a [(f64, f64)],
}

/// Candidate rings around a marker: the label's gap from the marker edge grows by one label
/// height per ring.
const RINGS: usize = 3;

/// The placed box of each label, for markers at `anchors` with label sizes `sizes` (pixels).
/// `anchors` and `sizes` pair up; extra entries of the longer one are ignored. Also returns the
/// ring (0 = next to the marker) each label was placed in, for leader lines.
pub(crate) fn place_labels(
    anchors: &[(f64, f64)],
    sizes: &[(f64, f64)],
    scene: &Scene<'_>,
) -> Vec<(Rect, usize)> {
    let r = scene.marker_r.max(0.0);
    let markers: Vec<Rect> = scene
        .markers
        .iter()
        .map(|&(x, y)| Rect {
            x0: x - r,
            y0: y - r,
            x1: x + r,
            y1: y + r,
        })
        .collect();
    let plot = Rect {
        x0: 0.0,
        y0: 0.0,
        x1: scene.bounds.0,
        y1: scene.bounds.1,
    };
    // One sample per curve cell (its centre), so that coverage does not depend on sampling.
    let cells: HashSet<(i64, i64)> = scene
        .lines
        .iter()
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .map(|p| ((p.0 / CELL).floor() as i64, (p.1 / CELL).floor() as i64))
        .collect();
    let lines: Vec<(f64, f64)> = cells
        .into_iter()
        .map(|(i, j)| ((i as f64 + 0.5) * CELL, (j as f64 + 0.5) * CELL))
        .collect();
    let mut placed: Vec<(Rect, usize)> = Vec::with_capacity(anchors.len());
    // Sample points of the leader lines of the labels placed so far.
    let mut leaders: Vec<(f64, f64)> = Vec::new();
    for (&(ax, ay), &(w, h)) in anchors.iter().zip(sizes) {
        let mut best: Option<(f64, Rect, usize)> = None;
        for ring in 0..RINGS {
            let g = r + 3.0 + ring as f64 * (h + 2.0);
            // East and west first (reads best), then the diagonals, then north and south.
            let candidates = [
                (ax + g, ay - h / 2.0),
                (ax - g - w, ay - h / 2.0),
                (ax + g, ay - g - h),
                (ax - g - w, ay - g - h),
                (ax + g, ay + g),
                (ax - g - w, ay + g),
                (ax - w / 2.0, ay - g - h),
                (ax - w / 2.0, ay + g),
            ];
            for (x0, y0) in candidates {
                let b = Rect {
                    x0,
                    y0,
                    x1: x0 + w,
                    y1: y0 + h,
                };
                let hard = placed.iter().map(|(p, _)| b.overlap(p)).sum::<f64>()
                    + markers.iter().map(|m| b.overlap(m)).sum::<f64>()
                    + scene.avoid.iter().map(|a| b.overlap(a)).sum::<f64>()
                    + (b.area() - b.overlap(&plot));
                let covered = lines.iter().filter(|p| b.contains(**p)).count() as f64;
                let leader = if ring > 0 {
                    leader_points((ax, ay), &b, r)
                } else {
                    Vec::new()
                };
                let others = markers.iter().filter(|m| !m.contains((ax, ay)));
                let mut blocks = placed.iter().map(|(p, _)| p).chain(others);
                let crossing = blocks.any(|m| leader.iter().any(|q| m.contains(*q)))
                    || leaders.iter().any(|q| b.contains(*q));
                let soft = covered + CROSSING_COST * f64::from(u8::from(crossing));
                let cost = 1e6 * hard + soft + RING_COST * ring as f64;
                if best.is_none_or(|(c, _, _)| cost < c) {
                    best = Some((cost, b, ring));
                }
            }
        }
        if let Some((_, b, ring)) = best {
            if ring > 0 {
                leaders.extend(leader_points((ax, ay), &b, r));
            }
            placed.push((b, ring));
        }
    }
    placed
}

/// Eight points along the leader line from a marker at `at` (half-size `r`) to the nearest
/// point of the label box `b`, leaving out those on the marker itself.
pub(crate) fn leader_points(at: (f64, f64), b: &Rect, r: f64) -> Vec<(f64, f64)> {
    let end = b.nearest(at);
    (1..=8)
        .map(|k| {
            let t = f64::from(k) / 8.0;
            (at.0 + t * (end.0 - at.0), at.1 + t * (end.1 - at.1))
        })
        .filter(|q| (q.0 - at.0).abs() > r || (q.1 - at.1).abs() > r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene<'a>(
        markers: &'a [(f64, f64)],
        avoid: &'a [Rect],
        lines: &'a [(f64, f64)],
    ) -> Scene<'a> {
        Scene {
            bounds: (800.0, 500.0),
            markers,
            marker_r: 10.0,
            avoid,
            lines,
        }
    }

    /// Six points in a tight cluster (closer than a label is wide): no two labels overlap, no
    /// label covers a marker, and all stay inside the plot.
    #[test]
    fn a_cluster_of_labels_does_not_overlap() {
        let anchors: Vec<(f64, f64)> = (0..6)
            .map(|i| (400.0 + 12.0 * f64::from(i), 250.0 + 9.0 * f64::from(i % 2)))
            .collect();
        let sizes = vec![(90.0, 22.0); 6];
        let placed = place_labels(&anchors, &sizes, &scene(&anchors, &[], &[]));
        assert_eq!(placed.len(), 6);
        for (i, (a, _)) in placed.iter().enumerate() {
            for (b, _) in &placed[..i] {
                assert_eq!(a.overlap(b), 0.0, "{a:?} overlaps {b:?}");
            }
            for &(x, y) in &anchors {
                let m = Rect {
                    x0: x - 10.0,
                    y0: y - 10.0,
                    x1: x + 10.0,
                    y1: y + 10.0,
                };
                assert_eq!(a.overlap(&m), 0.0, "{a:?} covers the marker at {x}, {y}");
            }
            assert!(a.x0 >= 0.0 && a.y0 >= 0.0 && a.x1 <= 800.0 && a.y1 <= 500.0);
        }
    }

    /// A lone point takes the first candidate (east of the marker, vertically centred); near the
    /// right edge it flips west; a box to avoid and a curve push it elsewhere.
    #[test]
    fn labels_keep_inside_and_off_what_they_avoid() {
        let at = [(100.0, 100.0)];
        let one = place_labels(&at, &[(50.0, 20.0)], &scene(&at, &[], &[]));
        assert_eq!(one[0].0.x0, 113.0);
        assert_eq!(one[0].0.y0, 90.0);
        let right = [(790.0, 100.0)];
        let edge = place_labels(&right, &[(50.0, 20.0)], &scene(&right, &[], &[]));
        assert_eq!(edge[0].0.x1, 777.0);
        let legend = [Rect {
            x0: 105.0,
            y0: 50.0,
            x1: 300.0,
            y1: 150.0,
        }];
        let avoided = place_labels(&at, &[(50.0, 20.0)], &scene(&at, &legend, &[]));
        assert_eq!(avoided[0].0.overlap(&legend[0]), 0.0);
        assert_eq!(avoided[0].0.x1, 87.0, "west of the marker");
        // A horizontal curve through the marker: east and west both cover it, so the label
        // goes above (north-east).
        let line: Vec<(f64, f64)> = (0..100).map(|i| (f64::from(i) * 3.0, 100.0)).collect();
        let above = place_labels(&at, &[(50.0, 20.0)], &scene(&at, &[], &line));
        assert!(line.iter().all(|p| !above[0].0.contains(*p)));
        assert_eq!((above[0].0.x0, above[0].0.y1), (113.0, 87.0));
    }
}
