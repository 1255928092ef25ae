//! A small terminal emulator for the viewer's byte stream: the tests replay what the backend
//! sent and compare the screen it leaves with the frame that was drawn.

/// A terminal emulator for the sequences the viewer's backend sends: cursor moves (CUP,
/// CUU/CUD/CUF/CUB, CHA, LF, CR, BS, RI), scroll margins (DECSTBM; a line feed on the bottom
/// margin scrolls the band up, a reverse index on the top margin scrolls it down, the rows
/// scrolled in blank; setting or resetting the margins homes the cursor; CUU/CUD stop at the
/// margins from inside the band), erase display, and attributes and modes (ignored).
pub fn replay(bytes: &[u8], w: usize, h: usize) -> Vec<String> {
    let mut grid = vec![vec![' '; w]; h];
    let (mut x, mut y) = (0usize, 0usize);
    let (mut top, mut bottom) = (0usize, h - 1);
    let text = String::from_utf8(bytes.to_vec()).expect("the stream is UTF-8");
    let mut it = text.chars().peekable();
    let scroll = |grid: &mut Vec<Vec<char>>, top: usize, bottom: usize, up: bool| {
        if up {
            grid[top..=bottom].rotate_left(1);
            grid[bottom] = vec![' '; w];
        } else {
            grid[top..=bottom].rotate_right(1);
            grid[top] = vec![' '; w];
        }
    };
    while let Some(c) = it.next() {
        match c {
            '\x1b' if it.peek() == Some(&'M') => {
                it.next();
                if y == top {
                    scroll(&mut grid, top, bottom, false);
                } else {
                    y = y.checked_sub(1).expect("RI at the top row");
                }
            }
            '\x1b' => {
                assert_eq!(it.next(), Some('['), "only CSI and RI are sent");
                let mut params = String::new();
                let fin = loop {
                    let c = it.next().expect("a final byte");
                    if c.is_ascii_alphabetic() {
                        break c;
                    }
                    params.push(c);
                };
                if params.starts_with('?') {
                    continue;
                }
                let nums: Vec<usize> = params.split(';').map(|p| p.parse().unwrap_or(0)).collect();
                let n = nums[0].max(1);
                match fin {
                    'H' => {
                        y = nums[0].max(1) - 1;
                        x = nums.get(1).copied().unwrap_or(1).max(1) - 1;
                    }
                    'A' if y >= top => y = y.saturating_sub(n).max(top),
                    'A' => y = y.checked_sub(n).expect("CUU off the screen"),
                    'B' if y <= bottom => y = (y + n).min(bottom),
                    'B' => y = (y + n).min(h - 1),
                    'C' => x += n,
                    'D' => x -= n,
                    'G' => x = n - 1,
                    'J' => grid = vec![vec![' '; w]; h],
                    'm' => {}
                    'r' => {
                        let t = nums[0].max(1);
                        let b = nums.get(1).copied().filter(|&b| b > 0).unwrap_or(h);
                        assert!(t < b && b <= h, "bad margins {params}");
                        (top, bottom) = (t - 1, b - 1);
                        (x, y) = (0, 0);
                    }
                    other => panic!("unexpected CSI {params}{other}"),
                }
            }
            '\n' if y == bottom => scroll(&mut grid, top, bottom, true),
            '\n' => {
                assert!(y + 1 < h, "a line feed scrolling the whole screen");
                y += 1;
            }
            '\r' => x = 0,
            '\x08' => x -= 1,
            c => {
                assert!(x < w && y < h, "printing outside the screen at {x},{y}");
                grid[y][x] = c;
                x += 1;
            }
        }
    }
    assert_eq!((top, bottom), (0, h - 1), "margins left set");
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}
